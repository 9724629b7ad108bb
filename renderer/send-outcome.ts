// Issue 25 item 4: what happened to a send, in one headline, from its counts. Compose's result,
// History's send (list and detail) and the campaign view all call sendOutcome(), so the same send
// reads the same everywhere: "250 accepted, 150 failed: out of credit", "All 2 failed: …",
// "Scheduled for …", "Sending: 3 of 400 answered" — never "Sent." when anything failed or is
// unknown. A send's server books and Cc/Bcc (issue 16: batches without recipient rows) count by what
// the gateway answered for them, so a send to a book alone finishes like any other. A send whose
// loop stopped because the journal took no write (a full disk) says so (`halted`). An unknown
// outcome gives the cause the journal recorded (the app stopped, the connection dropped, no answer in
// time, …: unknownWhy), the same in the headline and in History's banner (unknownBanner).
import type {
  OutboxBatch,
  OutboxContent,
  RecipientOutcome,
  StatusCounts,
  UnknownCause,
} from '../preload/api.ts';
import { describeReport } from '../protocol/reports.ts';
import { STATUS_GROUP, groupCounts } from '../domain/status-groups.ts';
import { formatTime, plural } from './format.ts';

/** Recipients by outcome: the parts of the bar, in its order. */
export interface Tally {
  accepted: number;
  /** Of `accepted`: delivered (a receipt said so). */
  delivered: number;
  failed: number;
  unknown: number;
  /** Not answered yet: pending (never requested) and sending. */
  open: number;
  total: number;
}

export type OutcomeTone = 'progress' | 'ok' | 'scheduled' | 'partial' | 'failed' | 'unknown' | 'halted';

export interface Outcome {
  tone: OutcomeTone;
  headline: string;
  tally: Tally;
}

export interface OutcomeInput {
  /** The send's recipients by status (the journal's counts, or a campaign's latest attempts). */
  counts: StatusCounts;
  /** The send's batches that carry a server book or Cc/Bcc (HistoryBooks' useJobBooks). */
  books?: readonly OutboxBatch[];
  /** For "Scheduled for …". */
  content?: OutboxContent;
  createdAt?: number;
  /** Why recipients failed, in words (mainFailReason of the rows), when the rows are known. */
  failReason?: string | null;
  /** The sending loop stopped: the journal took no more writes (outbox.halts). */
  halted?: string | null;
  /** Why its unknown batches are unknown, most batches first (OutboxJob.unknownCauses). */
  unknownCauses?: readonly UnknownCause[];
}

/** What made an outcome unknown, as the end of "… because …" / "the outcome is unknown: …". */
const UNKNOWN_WHY: Record<UnknownCause, string> = {
  'app-stopped': 'the app stopped while it was being sent',
  'connection-lost': 'the connection to the gateway dropped after the request was sent',
  'timed-out': 'no answer came back in time',
  'answer-unreadable': "the gateway's answer could not be read",
  'no-result': 'the gateway answered without a result for these recipients',
  'not-stored': 'the answer came back but could not be stored',
  failed: 'the request failed after it may have been sent',
};

/** The causes in words, joined: "the app stopped …; the connection … dropped …". */
export function unknownWhy(causes: readonly UnknownCause[]): string {
  return causes.length === 0
    ? 'the request may have reached the gateway, but no answer came back'
    : causes.map((c) => UNKNOWN_WHY[c]).join('; ');
}

/**
 * History's banner over batches whose outcome is unknown, by cause: "2 batches were being sent when
 * the app stopped; 1 batch: the connection to the gateway dropped after the request was sent. …".
 */
export function unknownBanner(batches: readonly Pick<OutboxBatch, 'unknownCause'>[]): string {
  const by = new Map<UnknownCause, number>();
  for (const b of batches) {
    const c = b.unknownCause ?? 'failed';
    by.set(c, (by.get(c) ?? 0) + 1);
  }
  const parts = [...by].map(([cause, n]) =>
    cause === 'app-stopped'
      ? `${plural(n, 'batch', 'batches')} ${n === 1 ? 'was' : 'were'} being sent when the app stopped`
      : `${plural(n, 'batch', 'batches')}: ${UNKNOWN_WHY[cause]}`,
  );
  return `${upperFirst(parts.join('; '))}; the outcome is unknown. Check the recipients below before resending — they may already have received the message.`;
}

const upperFirst = (s: string): string => s[0]!.toUpperCase() + s.slice(1);

/** A send with a schedule (SendTimeAbsolute or SendTimeDelay): when it goes out, as the user set it. */
export function scheduledAt(content: OutboxContent, createdAt: number): string | null {
  if (content.sendTimeAbsolute !== undefined) return `${content.sendTimeAbsolute.replace('T', ' ')} UTC`;
  if (content.sendTimeDelay !== undefined) return formatTime(createdAt + content.sendTimeDelay * 60_000);
  return null;
}

/** The recipients of `counts` and of the book batches, grouped as the bar shows them. */
export function tallyOf(counts: StatusCounts, books: readonly OutboxBatch[] = []): Tally {
  const g = groupCounts(counts);
  const t: Tally = {
    accepted: g.accepted + g.delivered,
    delivered: g.delivered,
    failed: g.failed,
    unknown: g.unknown,
    open: g.pending + g.sending,
    total: 0,
  };
  for (const b of books) {
    const x = b.extras;
    if (!x) continue;
    // A book's batch counts as the recipients it reaches (one when not sized).
    const reach = x.reach ?? 1;
    if (b.state === 'pending' || b.state === 'sending') t.open += reach;
    else if (b.state === 'unknown') t.unknown += reach;
    else if (x.answered !== null) {
      t.accepted += x.accepted ?? 0;
      t.failed += x.rejected ?? 0;
      t.unknown += Math.max(0, x.answered - (x.accepted ?? 0) - (x.rejected ?? 0));
    } else if (b.state === 'accepted') t.accepted += reach;
    else t.failed += reach;
  }
  t.total = t.accepted + t.failed + t.unknown + t.open;
  return t;
}

/** The reason most failed rows give, in words ("out of credit"), or null when none failed. */
export function mainFailReason(rows: readonly RecipientOutcome[]): string | null {
  const seen = new Map<string, number>();
  for (const r of rows) {
    if (STATUS_GROUP[r.status] !== 'failed') continue;
    const why =
      r.status === 'failed' && r.receiptReport !== null
        ? describeReport(r.receiptReport)
        : r.report !== null
          ? describeReport(r.report)
          : (r.reportText ?? '');
    if (why) seen.set(why, (seen.get(why) ?? 0) + 1);
  }
  let best: string | null = null;
  let most = 0;
  for (const [why, n] of seen)
    if (n > most) {
      best = why;
      most = n;
    }
  return best === null ? null : lowerFirst(best.replace(/^not sent: /i, ''));
}

const lowerFirst = (s: string): string => (/^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s);

/** The send's outcome: its headline and tone, and the tally the bar draws. */
export function sendOutcome(input: OutcomeInput): Outcome {
  const t = tallyOf(input.counts, input.books);
  const when =
    input.content && input.createdAt !== undefined ? scheduledAt(input.content, input.createdAt) : null;
  const answered = t.total - t.open;
  const failedWords = `${t.failed.toLocaleString()} failed${input.failReason ? `: ${input.failReason}` : ''}`;
  const unknownWords = `${t.unknown.toLocaleString()} unknown (${
    input.unknownCauses?.length ? `${unknownWhy(input.unknownCauses)}; ` : ''
  }may have arrived; never re-sent by itself)`;
  const parts = [
    t.accepted ? `${t.accepted.toLocaleString()} accepted` : '',
    t.failed ? failedWords : '',
    t.unknown ? unknownWords : '',
  ].filter(Boolean);

  if (input.halted && t.open > 0)
    return {
      tone: 'halted',
      tally: t,
      headline:
        `Stopped: ${answered.toLocaleString()} of ${t.total.toLocaleString()} answered, and the app could not ` +
        `record the rest (${input.halted}). Nothing more is sent. Free disk space and restart the app: ` +
        `recipients whose answer was not recorded are then shown as unknown, never re-sent.`,
    };
  if (t.total === 0) return { tone: 'progress', tally: t, headline: 'Starting…' };
  if (t.open > 0)
    return {
      tone: 'progress',
      tally: t,
      headline: `Sending: ${answered.toLocaleString()} of ${plural(t.total, 'recipient')} answered${
        parts.length ? ` (${parts.join(', ')})` : ''
      }`,
    };
  const prefix = when ? `Scheduled for ${when}: ` : '';
  if (t.accepted === t.total)
    return {
      tone: when ? 'scheduled' : 'ok',
      tally: t,
      headline: when
        ? `${prefix}${t.total === 1 ? 'the recipient was' : `all ${t.total.toLocaleString()} recipients were`} accepted by the gateway`
        : t.delivered === t.total
          ? `All ${plural(t.total, 'recipient')} delivered`
          : `All ${plural(t.total, 'recipient')} accepted${t.delivered ? ` (${t.delivered.toLocaleString()} delivered)` : ''}`,
    };
  if (t.failed === t.total)
    return {
      tone: 'failed',
      tally: t,
      headline: `Not sent: ${t.total === 1 ? 'the recipient' : `all ${t.total.toLocaleString()}`} failed${
        input.failReason ? `: ${input.failReason}` : ''
      }`,
    };
  if (t.unknown === t.total)
    return {
      tone: 'unknown',
      tally: t,
      headline: `Outcome unknown for ${t.total === 1 ? 'the recipient' : `all ${t.total.toLocaleString()}`}: ${unknownWhy(input.unknownCauses ?? [])}; it may have reached the gateway. Never re-sent by itself.`,
    };
  return { tone: 'partial', tally: t, headline: `${prefix}${parts.join(', ')}` };
}
