// Issue 27 item 6 (main/store/outbox-answer.ts): what each recipient of an answered batch is stored
// with, against an oracle written from the journal's contract (recordResults' doc, issue 15): a result
// is matched by `to` (normalised; the last one for a number wins) unless some result has no `to`, then
// by position in the batch's SendTo list; no result or no report (and not notSent) is unknown with the
// result's MessageIdentifier and text kept, notSent is rejected, else the trimmed report's status and
// group. Random batches (any size up to 7), answers echoed in order, shuffled, with numbers written in
// another form, duplicates, missing and foreign results, or positional (short or long); recipients as
// `messages` rows (listed before the send, or while the batch waited) beside lean ones; a mail merge;
// stored by recordResults, recordResultsCounted (its counts = the rows), or crash recovery of a held
// answer in either form (columns, or an earlier version's array of results); early receipts.
// The batch's state too; and a send with Cc/Bcc and a book (their records counted on the batch, own
// recipients among them, shuffled). The same file passes on the code before issue 27's diet (12375af).
import { describe, expect, it } from 'vitest';
import type { AppDb } from '../../../main/store/db.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import { REPORT, classifyReport } from '../../../protocol/reports.ts';
import { statusOfReport } from '../../../main/store/outbox-answer.ts';
import type { OutboxContent, RecipientOutcome, RecipientResult } from '../../../domain/index.ts';
import { withJournal } from './helpers.ts';
import { rng } from '../../support/random.ts';

let app: AppDb;
withJournal((a) => {
  app = a;
});
const TEXT: OutboxContent = { kind: 'text', text: 'Doors open at nine', replyTo: '447700900999' };
const N = (i: number) => `4477009001${String(i).padStart(2, '0')}`;

/** A result and the number it stands for (its `to` may be written in another form, or absent). */
interface Given {
  number: string;
  result: RecipientResult;
}

type Expected = Pick<
  RecipientOutcome,
  'to' | 'status' | 'messageIdentifier' | 'report' | 'reportText' | 'classification'
>;

function expectedOf(peer: string, r: RecipientResult | undefined): Expected {
  if (!r || (r.report === undefined && !r.notSent))
    return {
      to: peer,
      status: 'unknown',
      messageIdentifier: r?.messageIdentifier ?? null,
      report: null,
      reportText: r?.text ?? 'the gateway gave no result for this recipient',
      classification: null,
    };
  if (r.report === undefined)
    return {
      to: peer,
      status: 'rejected',
      messageIdentifier: null,
      report: null,
      reportText: r.text ?? 'not sent',
      classification: null,
    };
  const report = r.report.trim();
  return {
    to: peer,
    status: statusOfReport(report),
    messageIdentifier: r.messageIdentifier ?? null,
    report,
    reportText: r.text ?? null,
    classification: classifyReport(report),
  };
}

/** A book's or Cc/Bcc's records as the batch counts them (issue 16). */
interface Extras {
  answered: number;
  accepted: number;
  rejected: number;
}
const NO_EXTRAS: Extras = { answered: 0, accepted: 0, rejected: 0 };

/** The batch's state from its recipients' outcomes and its extras (recordResults' doc). */
function stateOf(outcomes: readonly Expected[], x: Extras): string {
  const n = (s: string) => outcomes.filter((o) => o.status === s).length;
  const total = outcomes.length + x.answered;
  const accepted = n('accepted') + n('queued') + x.accepted;
  const rejected = n('rejected') + x.rejected;
  return accepted > 0 ? 'accepted' : total > 0 && rejected === total ? 'rejected' : 'unknown';
}

describe('a batch answered in any shape stores each recipient as its own result says', () => {
  for (let seed = 1; seed <= 40; seed++)
    it(`seed ${seed}`, () => {
      const rand = rng(seed * 7919);
      const pick = (n: number) => Math.floor(rand() * n);
      const journal = new OutboxJournal(app, { batchSize: 1 + pick(7), defaultCountry: 'GB' });
      const conversations = new ConversationsRepo(app);
      let mid = 0;
      const outcome = (to: string | undefined): RecipientResult => {
        const base = to === undefined ? {} : { to };
        switch (pick(8)) {
          case 0:
            return { ...base, report: REPORT.accepted, messageIdentifier: `M${++mid}` };
          case 1:
            return {
              ...base,
              report: ` ${REPORT.accepted} `,
              messageIdentifier: `M${++mid}`,
              text: 'padded',
            };
          case 2:
            return { ...base, report: REPORT.queued, messageIdentifier: `M${++mid}` };
          case 3:
            return { ...base, report: '15', text: `refused ${pick(2)}` };
          case 4:
            return { ...base, report: '77777' };
          case 5:
            return { ...base, notSent: true, ...(pick(2) ? { text: 'never left' } : {}) };
          case 6:
            return { ...base, messageIdentifier: `M${++mid}`, text: 'no report' };
          default:
            return base;
        }
      };
      const form = (n: string): string => {
        const f = pick(4);
        return f === 0 ? `+${n}` : f === 1 ? `0${n.slice(2)}` : n;
      };
      const pool = Array.from({ length: 14 }, (_, i) => N(i));
      for (const p of pool) if (pick(5) === 0) conversations.open('', p);
      const numbers = pool.filter(() => pick(4) !== 0);
      if (numbers.length === 0) numbers.push(N(0));
      const merge = pick(2) === 0;
      const job = journal.createJob(
        numbers,
        TEXT,
        merge ? { textOf: (n) => `Hi ${Number(n.slice(-1)) % 3}` } : {},
      );
      const log: string[] = [`job ${numbers.join(',')} merge ${merge}`];
      for (let batch = journal.claimNext(job.id); batch; batch = journal.claimNext(job.id)) {
        const rec = batch.recipients;
        // A number of the batch listed while it waits for its answer: it moves into `messages`.
        if (pick(4) === 0) conversations.open('', rec[pick(rec.length)]!);
        const shape = pick(4);
        let given: Given[];
        if (shape === 0) {
          const length = Math.max(0, rec.length - 1 + pick(3));
          given = Array.from({ length }, (_, i) => ({
            number: rec[i] ?? 'none',
            result: outcome(undefined),
          }));
        } else if (shape === 1) given = rec.map((n) => ({ number: n, result: outcome(n) }));
        else {
          given = [];
          for (const n of rec) {
            if (pick(5) !== 0) given.push({ number: n, result: outcome(form(n)) });
            if (pick(5) === 0) given.push({ number: n, result: outcome(form(n)) });
          }
          if (pick(3) === 0) given.push({ number: N(60), result: outcome(N(60)) });
          if (shape === 3)
            for (let i = given.length - 1; i > 0; i--) {
              const j = pick(i + 1);
              [given[i], given[j]] = [given[j]!, given[i]!];
            }
        }
        const results = given.map((g) => g.result);
        const positional = results.some((r) => r.to === undefined);
        const last = new Map<string, RecipientResult>();
        for (const g of given) last.set(g.number, g.result);
        const expected = rec.map((n, i) => expectedOf(n, positional ? results[i] : last.get(n)));
        // A receipt before its answer (outcome-receipts' early receipts) for one MessageIdentifier.
        const mids = results.flatMap((r) => (r.messageIdentifier ? [r.messageIdentifier] : []));
        if (mids.length > 0 && pick(3) === 0)
          journal.recordReceipt({ messageIdentifier: mids[pick(mids.length)]!, report: '-1' });
        const how = pick(4);
        const ctx = `${log.join('\n')}\nbatch ${batch.id} [${rec.join(',')}] how ${how}\n${JSON.stringify(results)}`;
        log.push(`batch ${batch.id} shape ${shape} how ${how}`);
        let counts: Record<string, number> | null = null;
        if (how === 0) journal.recordResults(batch.id, results);
        else if (how === 1) counts = { ...journal.recordResultsCounted(batch.id, results) };
        else {
          if (how === 2) journal.holdAnswer(batch.id, results);
          // An earlier version's held answer: the results as a JSON array.
          else
            app.db
              .prepare('UPDATE outbox_batches SET answer = ? WHERE id = ?')
              .run(JSON.stringify(results), batch.id);
          app.db.prepare("UPDATE outbox_batches SET owner = '4343:crashed' WHERE id = ?").run(batch.id);
          new OutboxJournal(app, { defaultCountry: 'GB' }).recoverAfterCrash({
            isProcessAlive: () => false,
            isRunAlive: () => false,
          });
        }
        expect(journal.batch(batch.id)?.state, ctx).toBe(stateOf(expected, NO_EXTRAS));
        const stored = journal.recipientsOfBatch(batch.id);
        expect(
          stored.map((o) => ({
            to: o.to,
            status: o.receiptReport === null ? o.status : 'receipt',
            messageIdentifier: o.messageIdentifier,
            report: o.report,
            reportText: o.reportText,
            classification: o.classification,
          })),
          ctx,
        ).toEqual(
          expected.map((e, i) =>
            (stored[i]?.receiptReport ?? null) === null ? e : { ...e, status: 'receipt' },
          ),
        );
        if (counts !== null) {
          const byRows: Record<string, number> = {};
          for (const o of stored) byRows[o.status] = (byRows[o.status] ?? 0) + 1;
          expect(Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)), ctx).toEqual(byRows);
        }
      }
      // Both kinds of recipient were answered in the run of seeds (checked across seeds below).
      const kinds = app.db
        .prepare(
          `SELECT (SELECT count(*) FROM messages WHERE job_id = ?1 AND direction = 'out') AS rows,
                  (SELECT count(*) FROM outbox_recipients WHERE job_id = ?1) AS lean`,
        )
        .get(job.id) as { rows: number; lean: number };
      seen.rows += kinds.rows;
      seen.lean += kinds.lean;
    });
  it('answered both `messages` rows and lean recipients across the seeds', () => {
    expect(seen.rows).toBeGreaterThan(20);
    expect(seen.lean).toBeGreaterThan(100);
  });
});
const seen = { rows: 0, lean: 0 };

describe('a send with Cc and a book: own recipients by number among the extras records, shuffled', () => {
  const CC = '447700800001';
  for (let seed = 1; seed <= 20; seed++)
    it(`seed ${seed}`, () => {
      const rand = rng(seed * 104729);
      const pick = (n: number) => Math.floor(rand() * n);
      const journal = new OutboxJournal(app, { batchSize: 2 + pick(5), defaultCountry: 'GB' });
      const numbers = Array.from({ length: 1 + pick(9) }, (_, i) => N(i));
      const job = journal.createJob(numbers, TEXT, {
        extras: {
          first: { fields: { SendCc: CC, SendBccAddressBook: 'Board' }, reach: 3 },
          books: [{ ref: 'Club', reach: 2 }],
        },
      });
      const report = (): Pick<RecipientResult, 'report' | 'text'> => {
        const k = pick(4);
        return k === 0
          ? { report: '15', text: `refused ${pick(2)}` }
          : k === 1
            ? { report: ` ${REPORT.queued}` }
            : k === 2
              ? { report: REPORT.accepted }
              : {};
      };
      for (let batch = journal.claimNext(job.id); batch; batch = journal.claimNext(job.id)) {
        const rec = batch.recipients;
        const extra =
          batch.extras === undefined
            ? []
            : rec.length === 0
              ? [`Club #1`, `Club #2`]
              : [pick(2) ? CC : `0${CC.slice(2)}`, 'Board #1'];
        const given: Array<{ own: string | null; result: RecipientResult }> = [
          ...rec
            .filter(() => pick(6) !== 0)
            .map((n) => ({ own: n, result: { to: pick(2) ? n : `+${n}`, ...report() } })),
          ...extra.map((to) => ({ own: null, result: { to, ...report() } })),
        ];
        for (let i = given.length - 1; i > 0; i--) {
          const j = pick(i + 1);
          [given[i], given[j]] = [given[j]!, given[i]!];
        }
        const results = given.map((g) => g.result);
        const last = new Map<string, RecipientResult>();
        const x = { ...NO_EXTRAS };
        for (const g of given) {
          if (g.own !== null) last.set(g.own, g.result);
          else if (g.result.report !== undefined) {
            x.answered++;
            const c = classifyReport(g.result.report.trim());
            if (c === 'accepted') x.accepted++;
            else if (c === 'error') x.rejected++;
          }
        }
        const expected = rec.map((n) => expectedOf(n, last.get(n)));
        const ctx = `batch ${batch.id} [${rec.join(',')}]\n${JSON.stringify(results)}`;
        if (pick(2)) journal.recordResults(batch.id, results);
        else journal.recordResultsCounted(batch.id, results);
        const stored = journal.batch(batch.id)!;
        expect(stored.state, ctx).toBe(stateOf(expected, x));
        if (batch.extras !== undefined) expect(stored.extras, ctx).toMatchObject(x);
        expect(
          journal.recipientsOfBatch(batch.id).map((o) => ({
            to: o.to,
            status: o.status,
            messageIdentifier: o.messageIdentifier,
            report: o.report,
            reportText: o.reportText,
            classification: o.classification,
          })),
          ctx,
        ).toEqual(expected);
      }
    });
});
