// Repeats across CollectMessages answers (issue 24). The spec never says that collecting a message
// removes it from the gateway (6.2), and an independent server that keeps every message answers
// each call with the same full page: "call again while the page is full" would then call without
// end (spec 7.3.1: repeated requests may get the client's address blocked). This watcher tells the
// messages of a page that an earlier page of the same run already returned, so that the caller
// keeps each message once and stops calling as soon as a page repeats one.
//
// A message is known by its sender, recipient, timestamp and content; two messages equal in all four
// are told apart by count (a page may hold the same message twice, and then only a third copy in a
// later page is a repeat). The keys are SHA-256 digests, so memory per message is small and fixed;
// the oldest keys are forgotten past MAX_REMEMBERED.
import { createHash } from 'node:crypto';
import type { MOMessage } from '../../protocol/soap/operations.ts';

/** Most message keys one watcher remembers (a run of pages, or one app session's polls). */
export const MAX_REMEMBERED = 100_000;

function keyOf(m: MOMessage): string {
  return createHash('sha256')
    .update(JSON.stringify([m.SendTo, m.ReplyTo, m.Timestamp1, m.Message]))
    .digest('base64');
}

export interface PageEnd {
  /** messages of this page that an earlier page already returned */
  repeated: number;
  /** messages of this page not seen before */
  fresh: number;
}

export class CollectRepeats {
  /** key -> most copies of it in any earlier page */
  readonly #earlier = new Map<string, number>();
  /** key -> copies of it in the page being read */
  #page = new Map<string, number>();
  #repeated = 0;
  #fresh = 0;

  /** The messages of `items` (a part of the page being read) that no earlier page returned. */
  fresh(items: MOMessage[]): MOMessage[] {
    const out: MOMessage[] = [];
    for (const m of items) {
      const key = keyOf(m);
      const copies = (this.#page.get(key) ?? 0) + 1;
      this.#page.set(key, copies);
      if (copies <= (this.#earlier.get(key) ?? 0)) this.#repeated++;
      else {
        this.#fresh++;
        out.push(m);
      }
    }
    return out;
  }

  /** Ends the page being read: what it held; its messages count as seen from the next page on. */
  endPage(): PageEnd {
    for (const [key, copies] of this.#page) {
      const before = this.#earlier.get(key) ?? 0;
      if (copies > before) {
        this.#earlier.delete(key); // re-inserted: the newest keys are kept longest
        this.#earlier.set(key, copies);
      }
    }
    while (this.#earlier.size > MAX_REMEMBERED) {
      const oldest = this.#earlier.keys().next().value;
      if (oldest === undefined) break;
      this.#earlier.delete(oldest);
    }
    const end = { repeated: this.#repeated, fresh: this.#fresh };
    this.#page = new Map();
    this.#repeated = 0;
    this.#fresh = 0;
    return end;
  }
}

/** The plain warning both the CLI and the app give when a page repeats messages. */
export function repeatWarning(repeated: number, calls: number): string {
  return (
    `The gateway keeps returning the same messages (${repeated} of its last answer had come before): ` +
    `it does not seem to remove messages once collected; stopped after ${calls} ${calls === 1 ? 'call' : 'calls'}, ` +
    'each message kept once'
  );
}
