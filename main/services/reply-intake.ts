// Issue 25: every reply the app receives is on disk before it is parsed, and stored exactly once.
//
// - A CollectMessages answer: each chunk of its body is written to the reply spool as it is read
//   (main/store/reply-spool.ts: one fsynced transaction a chunk), and only once the whole answer is
//   read are its messages parsed again from the spool and stored, in one transaction per chunk,
//   the last of which deletes the entry. Storing (thousands of inserts) never delays reading: the
//   answer is read off the socket as fast as it arrives, which keeps the window that remains (bytes
//   the kernel received that the process never read, docs/ARCHITECTURE.md) as short as it can be.
// - A DeliverMessage push: its body (and its HTTP charset) is spooled before it is parsed
//   (PushReceiverOptions.spool), the message stored and the entry deleted in one transaction
//   before the gateway gets its answer.
// - Each message's identity is its answer's random id and its position in the answer: two
//   identical messages are two, and an entry read again (after kill -9) stores nothing twice.
// - An entry left by a run that died is read at start (recover). When a write fails (a full disk),
//   the bytes not yet on disk are held in memory, what is on disk stays in the spool, no new answer
//   is asked for, and both are stored when space returns (retry; 'inbox:held' tells the UI).
import { randomUUID } from 'node:crypto';
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { createResponseStream } from '../../protocol/soap/envelope.ts';
import type { MOMessage } from '../../protocol/soap/operations.ts';
import { pushedMessage } from '../client/push-receiver.ts';
import type { InboundMessage } from '../client/push-receiver.ts';
import type { AppStore } from '../store/app-store.ts';
import type { Office } from '../office/office.ts';
import type { SpoolAccount, SpoolAnswer } from '../store/reply-spool.ts';
import { message } from './app-options.ts';
import type { Emit, Log } from './app-options.ts';
import type { MessageRecord, ReplyHold } from '../../preload/api.ts';

/** Free bytes below which no CollectMessages is made (the gateway keeps the messages meanwhile). */
export const MIN_FREE_BYTES = 8 * 1024 * 1024;

export interface Inbound {
  from: string;
  to: string;
  text: string;
  timestamp: string;
}

export function fromCollected(m: MOMessage): Inbound {
  return {
    from: m.ReplyTo,
    to: m.SendTo,
    text: m.Message?.TextMessage ?? m.Message?.FlashMessage ?? '',
    timestamp: m.Timestamp1,
  };
}

export function fromPushed(m: InboundMessage): Inbound {
  return {
    from: m.ReplyTo ?? '',
    to: m.Recipient?.SendTo ?? '',
    text: m.Message?.TextMessage ?? m.Message?.FlashMessage ?? '',
    timestamp: m.Timestamp1 ?? new Date().toISOString(),
  };
}

/** The messages of a page that are new (issue 24: a gateway may return collected messages again). */
export type FreshFilter = (page: MOMessage[]) => MOMessage[];

/**
 * A page's messages as stored, a repeat as null in its place: one not in `fresh`'s answer (this
 * session's earlier pages), or one `earlier` says was kept from another answer (asked of each).
 */
function pageItems(
  page: MOMessage[],
  fresh: FreshFilter | undefined,
  earlier: ((m: Inbound) => boolean) | undefined,
): Array<Inbound | null> {
  const kept = fresh ? new Set(fresh(page)) : null;
  return page.map((m) => {
    const item = fromCollected(m);
    const before = earlier?.(item) === true;
    return before || (kept !== null && !kept.has(m)) ? null : item;
  });
}

export interface ReplyIntakeDeps {
  store: AppStore;
  emit: Emit;
  log: Log;
  /** Messages just stored (committed) under `accountId` (issue 25): announce them. */
  announce(messages: MessageRecord[], accountId: string): void;
  /** Free bytes needed in the data folder before an answer is asked for (default MIN_FREE_BYTES). */
  minFreeBytes?: number | undefined;
  /** Issue 28: office mode: what was stored is queued for the office database in the same transaction. */
  office?: Pick<Office, 'inboundStored'> | undefined;
  /**
   * Issue 24 across runs: a collected message is a repeat when as many of its copies (same sender,
   * recipient, timestamp and text) as this answer has so far were kept from other answers already —
   * a gateway that keeps collected messages answers a new run (or a spooled answer recovered) with
   * what was kept before. The poller's rule (collect-repeats.ts) for one session, kept in the store.
   */
  repeatsAcrossRuns?: boolean | undefined;
}

/** One CollectMessages answer as it is read. */
export interface CollectIntake {
  /** Each chunk of the body as received (before it is parsed), with the answer's HTTP charset. Never throws. */
  raw(chunk: Uint8Array, charset?: string): void;
  /** The answer is over (read to its end or broken off): its messages stored; how many are new. */
  finish(): number;
}

interface Held {
  a: SpoolAnswer;
  /** Bytes not on disk yet (a write failed), in order. */
  chunks: Uint8Array[];
}

function isFull(err: unknown): boolean {
  const e = err as { errcode?: number; code?: string; message?: string };
  return e.errcode === 13 || e.code === 'ENOSPC' || /disk is full|ENOSPC/i.test(e.message ?? '');
}

export function createReplyIntake(deps: ReplyIntakeDeps) {
  const { store, emit, log } = deps;
  const spool = store.replySpool;
  /** Answers whose bytes are not all on disk (a spool write failed). */
  const held: Held[] = [];
  /** Spool entries of this run whose messages could not all be stored yet. */
  const deferred = new Set<number>();
  /** Push answers by token. */
  const pushes = new Map<string, SpoolAnswer>();
  let reason: string | null = null;
  let announced = false;

  function state(): ReplyHold {
    return {
      held: held.length > 0 || deferred.size > 0 || reason !== null,
      answers: held.length + deferred.size,
      inMemoryBytes: held.reduce((n, h) => n + h.chunks.reduce((m, c) => m + c.byteLength, 0), 0),
      reason,
    };
  }

  function changed(): void {
    const s = state();
    if (!s.held && !announced) return;
    announced = s.held;
    emit('inbox:held', s);
  }

  function failed(err: unknown, what: string): void {
    reason = isFull(err) ? 'the disk is full' : `the database could not be written (${message(err)})`;
    log(`${what}: ${message(err)}`);
  }

  /**
   * Stores `items` (positions from `first`) of `answer`; with `removeId`, ends that entry too. A null
   * item (a repeat of an earlier page, issue 24) keeps its position and is not stored.
   */
  function storeBatch(
    account: string,
    via: 'collect' | 'push',
    answer: string,
    first: number,
    items: Array<Inbound | null>,
    removeId?: number,
  ): MessageRecord[] {
    return spool.storeMessages(
      answer,
      first,
      items.map((m) => (m === null || m.from.trim() === '' ? null : m)),
      (m, identity) => {
        const r = store.conversations.storeInbound(account, m, identity, via);
        return r.stored ? r.message : null;
      },
      // issue 28: queued for the office database in the same transaction (kept once across crashes)
      { removeId, within: deps.office ? (stored) => deps.office?.inboundStored(stored, account) : undefined },
    );
  }

  /** With repeatsAcrossRuns: whether a message of `answer` (asked in order) was kept already. */
  function keptBefore(answer: string, account: string): ((m: Inbound) => boolean) | undefined {
    if (deps.repeatsAcrossRuns !== true) return undefined;
    const seen = new Map<string, { copies: number; kept: number }>();
    return (m) => {
      const key = store.conversations.contentKey(m);
      let k = seen.get(key);
      if (!k) {
        k = { copies: 0, kept: spool.collectedCopies(key, answer, account) };
        seen.set(key, k);
      }
      k.copies++;
      return k.copies <= k.kept;
    };
  }

  /**
   * Parses entry `id` again from the spool and stores what is missing, under the entry's account
   * (issue 25); throws when it cannot.
   */
  function processEntry(
    e: {
      id: number;
      answer: string;
      source: string;
      username: string;
      accountId: string;
      charset?: string | null;
    },
    fresh?: FreshFilter,
  ): number {
    const chunks = spool.bytes(e.id);
    let count = 0;
    const keep = (stored: MessageRecord[]): void => {
      count += stored.length;
      if (stored.length > 0) deps.announce(stored, e.accountId);
    };
    if (e.source === 'push') {
      // chunk 0: the body; chunk 1, when the push had one: its HTTP charset (pushSpool().keep)
      const [body, charset] = chunks;
      const m = body
        ? pushedMessage(body, e.username, {
            charset: charset
              ? Buffer.from(charset)
                  .toString('latin1')
                  .replace(/^charset=/, '')
              : undefined,
          })
        : null;
      keep(storeBatch(e.accountId, 'push', e.answer, 0, m ? [fromPushed(m)] : [], e.id));
      return count;
    }
    // the answer's HTTP charset, kept with the entry (an encoding only the Content-Type gave)
    const reader = createResponseStream('CollectMessages', e.charset ? { charset: e.charset } : {});
    const earlier = keptBefore(e.answer, e.accountId);
    let position = 0;
    let last: Array<Inbound | null> = [];
    try {
      for (const c of chunks) {
        const items = pageItems(reader.write(c), fresh, earlier);
        if (items.length === 0) continue;
        keep(storeBatch(e.accountId, 'collect', e.answer, position, items));
        position += items.length;
      }
      last = pageItems(reader.end().items, fresh, earlier);
    } catch (err) {
      if (isFull(err) || (err as { errcode?: unknown }).errcode !== undefined) throw err;
      // a fault, or an answer cut off: what came before it is stored, the rest never arrived
    }
    keep(storeBatch(e.accountId, 'collect', e.answer, position, last, e.id));
    return count;
  }

  /** Writes what is held in memory to the spool, then stores what this run left in it; true when all is. */
  function retry(): boolean {
    while (held.length > 0) {
      const h = held[0] as Held;
      try {
        spool.write(h.a, h.chunks);
      } catch (err) {
        failed(err, 'held replies still not written');
        return false;
      }
      held.shift();
      if (h.a.id !== null) deferred.add(h.a.id);
    }
    for (const e of spool.left(true)) {
      if (!deferred.has(e.id) || e.accountId === null) continue;
      try {
        processEntry({ ...e, accountId: e.accountId });
        deferred.delete(e.id);
      } catch (err) {
        failed(err, 'held replies still not stored');
        return false;
      }
    }
    deferred.clear(); // entries no longer in the spool were stored by a recovery meanwhile
    return true;
  }

  return {
    /**
     * Entries left by runs that are no longer alive (kill -9, a full disk) for `account`: stored
     * now, under it. The poller recovers when the account's session is ready, so that what a reply
     * brings about (its opt-out keyword, an auto-reply, office mode's queue) is done for the account
     * that collected it, as for any reply. An entry spooled before migration 045 that no account
     * could be matched to is the one of the account of its username.
     */
    recover(account: SpoolAccount): number {
      let n = 0;
      for (const e of spool.left(false)) {
        if (e.accountId === null ? e.username !== account.username : e.accountId !== account.id) continue;
        try {
          n += processEntry({ ...e, accountId: account.id });
        } catch (err) {
          failed(err, 'replies left from an earlier run not stored');
          changed();
          break;
        }
      }
      if (n > 0) log(`${n} replies received by an earlier run stored`);
      return n;
    },

    /** One CollectMessages answer for `account`; `fresh` leaves out repeats of earlier pages (issue 24). */
    collect(account: SpoolAccount, fresh?: FreshFilter): CollectIntake {
      const a = spool.begin('collect', account);
      let holding: Held | null = null;
      return {
        raw(chunk, charset) {
          if (a.seq === 0 && a.charset === undefined) a.charset = charset;
          if (holding) {
            holding.chunks.push(Buffer.from(chunk));
            return;
          }
          try {
            spool.write(a, [chunk]);
          } catch (err) {
            failed(err, 'a reply could not be written to disk, held in memory');
            holding = { a, chunks: [Buffer.from(chunk)] };
            held.push(holding);
            changed();
          }
        },
        finish() {
          if (holding || a.id === null) return 0;
          try {
            return processEntry(
              {
                id: a.id,
                answer: a.answer,
                source: 'collect',
                username: a.username,
                accountId: a.accountId,
                charset: a.charset ?? null,
              },
              fresh,
            );
          } catch (err) {
            failed(err, 'replies written to disk could not be stored yet');
            deferred.add(a.id);
            changed();
            return 0;
          }
        },
      };
    },

    /** The push receiver's spool (PushReceiverOptions.spool) for `account`. */
    pushSpool(account: SpoolAccount): {
      keep(body: Uint8Array, charset?: string): string;
      drop(token: string): void;
    } {
      return {
        keep(body, charset) {
          if (held.length > 0) throw new Error(`${reason ?? 'replies are held'}: not taking more now`);
          const a = spool.begin('push', account);
          try {
            // the HTTP charset (issue 24) with it, in the same transaction: the body is read with it again
            spool.write(
              a,
              charset === undefined ? [body] : [body, Buffer.from(`charset=${charset}`, 'latin1')],
            );
          } catch (err) {
            failed(err, 'a pushed reply could not be written to disk (the gateway keeps it)');
            changed();
            throw err;
          }
          pushes.set(a.answer, a);
          return a.answer;
        },
        drop(token) {
          const a = pushes.get(token);
          pushes.delete(token);
          if (a?.id === undefined || a.id === null) return;
          try {
            spool.remove(a.id);
          } catch (err) {
            log(`a spooled push not removed (read again at the next start): ${message(err)}`);
          }
        },
      };
    },

    /**
     * A pushed message for `account` (its token from pushSpool().keep): stored under it, its entry
     * ended. Never throws.
     */
    pushed(account: SpoolAccount, token: string | undefined, m: InboundMessage): void {
      const a = token === undefined ? undefined : pushes.get(token);
      if (token !== undefined) pushes.delete(token);
      try {
        const stored = storeBatch(
          a?.accountId ?? account.id,
          'push',
          a?.answer ?? randomUUID(),
          0,
          [fromPushed(m)],
          a?.id ?? undefined,
        );
        if (stored.length > 0) deps.announce(stored, a?.accountId ?? account.id);
      } catch (err) {
        failed(err, 'a pushed reply was written to disk but could not be stored yet');
        if (a?.id !== undefined && a.id !== null) deferred.add(a.id);
        changed();
      }
    },

    /**
     * Whether a new answer may be asked for: nothing held, and room on the disk. Tries the held
     * ones first. False: the gateway keeps its messages until then ('inbox:held' says why).
     */
    ready(): boolean {
      let ok = held.length > 0 || deferred.size > 0 ? retry() : true;
      if (ok && store.file !== ':memory:') {
        const fs = statfsSync(dirname(store.file));
        const free = fs.bavail * fs.bsize;
        if (free < (deps.minFreeBytes ?? MIN_FREE_BYTES)) {
          reason = `the disk is full (${Math.floor(free / 1024)} KiB free)`;
          ok = false;
        }
      }
      if (ok) reason = null;
      changed();
      return ok;
    },

    state,
  };
}

export type ReplyIntake = ReturnType<typeof createReplyIntake>;
