// `messenger inbox`: every message waiting at the gateway, printed once it is kept (issues 16, 25).
// One CollectMessages call after another while the pages come back full (a page at least as large as
// any before: the client cannot know the gateway's page size).
//
// Issue 25: the CLI takes replies in through the app's reply intake (main/services/reply-intake.ts),
// on a data folder of its own (--data, MESSENGER_DATA; main/cli.ts opens it): each answer is written
// raw to the reply spool (fsynced) as it is read, then parsed from there and stored, and only what is
// stored is printed. A run killed mid-collection (kill -9) leaves its answer in the spool; the next
// run stores and prints it first, then collects. Identity (answer + position) keeps two identical
// replies two and stores nothing twice; the repeat filter (issue 24) leaves out a message a gateway
// that keeps collected messages returns again, in this run (a warning ends it) and across runs (the
// store remembers). A reply stored by a run killed before it printed that line is in the store
// (messenger.sqlite of the data folder), not printed again.
//
// --json writes one JSON document: { outcome, value: { MessageList: { item: [...] }, Report }, calls }
// (plus `error` when a call failed, `warning` for repeats; Report is the last call's); each item is
// { Timestamp1, ReplyTo, SendTo, Message: { TextMessage } } as stored.
import type { GatewayClient } from '../client/gateway-client.ts';
import type { MOMessage } from '../../protocol/soap/operations.ts';
import { CollectRepeats, repeatWarning } from '../client/collect-repeats.ts';
import { EXIT } from './args.ts';
import type { CliIO } from './args.ts';
import { printResult } from './output.ts';

/** Most calls one `inbox` makes in a row. */
const MAX_CALLS = 1000;

/** A reply as stored (the app's MessageRecord has these fields). */
export interface StoredReply {
  peer: string;
  local: string | null;
  text: string;
  sentTimestamp: string | null;
}

/** The reply intake on the CLI's data folder (main/services/cli-replies.ts). */
export interface CliReplies {
  /** The database the replies are kept in. */
  readonly file: string;
  /** Replies a run that was killed received but did not store: stored (and printed) now; how many. */
  recover(): number;
  /** Null when an answer may be asked for; else why not (a full disk: the gateway keeps its messages). */
  ready(): string | null;
  /** One answer: each chunk as received, then finish() stores (and prints) its new messages. */
  collect(fresh: (page: MOMessage[]) => MOMessage[]): {
    raw(chunk: Uint8Array): void;
    finish(): number;
  };
  close(): void | Promise<void>;
}

/** Opens the intake; `print` gets each batch of replies just stored (committed). */
export type OpenReplies = (print: (stored: StoredReply[]) => void) => CliReplies | Promise<CliReplies>;

function line(m: StoredReply): string {
  return `${m.sentTimestamp ?? ''}  from ${m.peer} to ${m.local ?? ''}: ${m.text}`;
}

function item(m: StoredReply): object {
  return { Timestamp1: m.sentTimestamp, ReplyTo: m.peer, SendTo: m.local, Message: { TextMessage: m.text } };
}

export async function cmdInbox(
  client: GatewayClient,
  io: CliIO,
  json: boolean,
  openReplies: OpenReplies,
): Promise<number> {
  let total = 0;
  let largest = 0;
  let opened = false;
  const open = (): void => {
    if (opened) return;
    opened = true;
    if (json) io.stdout.write(`{"outcome":"ok","value":{"MessageList":{"item":[`);
  };
  const print = (stored: StoredReply[]): void => {
    if (stored.length === 0) return;
    open();
    const out = json
      ? stored.map((m, i) => `${total + i === 0 ? '\n' : ',\n'}${JSON.stringify(item(m))}`).join('')
      : `${stored.map(line).join('\n')}\n`;
    io.stdout.write(out);
    total += stored.length;
  };
  const replies = await openReplies(print);
  try {
    const recovered = replies.recover();
    if (recovered > 0) io.stderr.write(`${recovered} replies a stopped run had received were stored first\n`);
    const repeats = new CollectRepeats();
    for (let call = 1; ; call++) {
      const held = replies.ready();
      if (held !== null) {
        io.stderr.write(`not collecting: ${held}; the gateway keeps its messages (${replies.file})\n`);
        if (json) {
          open();
          io.stdout.write(
            `${total > 0 ? '\n' : ''}]},"Report":0},"calls":${call - 1},"held":${JSON.stringify(held)}}\n`,
          );
        }
        return EXIT.failed;
      }
      const answer = replies.collect((page) => repeats.fresh(page));
      let r: Awaited<ReturnType<GatewayClient['collectMessagesStreaming']>>;
      try {
        r = await client.collectMessagesStreaming(() => {}, undefined, answer.raw);
      } finally {
        answer.finish();
      }
      if (r.outcome !== 'ok') {
        if (!opened) return printResult(io, json, r, () => '');
        // messages of earlier calls are printed; say why the rest did not come
        if (json) io.stdout.write(`\n]},"Report":0},"calls":${call},"error":${JSON.stringify(r)}}\n`);
        else
          io.stderr.write(
            `after ${total} messages: ${r.outcome === 'rejected' ? `rejected (${r.code})` : r.outcome}: ${r.reason}\n`,
          );
        return r.outcome === 'unknown' ? EXIT.unknown : EXIT.failed;
      }
      open();
      const { repeated } = repeats.endPage();
      const warning = repeated > 0 ? repeatWarning(repeated, call) : undefined;
      const full = r.value.count > 0 && r.value.count >= largest;
      largest = Math.max(largest, r.value.count);
      if (!full || call >= MAX_CALLS || warning !== undefined) {
        const warned = warning !== undefined ? `,"warning":${JSON.stringify(warning)}` : '';
        if (json)
          io.stdout.write(
            `${total > 0 ? '\n' : ''}]},"Report":${r.value.Report}},"calls":${call}${warned}}\n`,
          );
        else if (total === 0) io.stdout.write('no new messages\n');
        if (warning !== undefined) io.stderr.write(`warning: ${warning}\n`);
        return EXIT.ok;
      }
    }
  } finally {
    await replies.close();
  }
}
