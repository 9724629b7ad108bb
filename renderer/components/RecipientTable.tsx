// The per-recipient status table every view shares (History's send detail, the campaign view,
// Compose's results): the contact's name beside the number, one status pill per recipient, and in
// words WHY a row is what it is (issue 17: an unknown row says why it is unknown and that it is
// never re-sent; pending = never requested looks different from unknown). Its summary counts the
// same rows the table shows (issue 12), grouped as the pills are.
import type { RecipientOutcome } from '../../domain/index.ts';
import { describeReport } from '../../protocol/reports.ts';
import { statusGroupOf } from '../../domain/status-groups.ts';
import type { StatusGroup } from '../../domain/status-groups.ts';
import { displayNumber, plural } from '../format.ts';
import { StatusPill } from './StatusPill.tsx';
import Papa from 'papaparse';

/** The groups a summary counts and a filter picks (domain/status-groups.ts); each row is in exactly one. */
export type RowGroup = StatusGroup;

export const GROUP_LABELS: Record<RowGroup, string> = {
  delivered: 'delivered',
  accepted: 'accepted',
  noReceipt: 'no receipt yet',
  failed: 'failed',
  unknown: 'unknown',
  pending: 'pending',
  sending: 'sending',
};

export function groupOf(r: RecipientOutcome): RowGroup {
  return statusGroupOf(r);
}

export type GroupCounts = Record<RowGroup, number>;

/** The rows counted by group: what the summary says is what the table shows. */
export function summarize(rows: readonly RecipientOutcome[]): GroupCounts {
  const c: GroupCounts = {
    delivered: 0,
    accepted: 0,
    noReceipt: 0,
    failed: 0,
    unknown: 0,
    pending: 0,
    sending: 0,
  };
  for (const r of rows) c[groupOf(r)] += 1;
  return c;
}

/** Why a row is what it is, in plain words (the gateway's code kept for reference). */
export function whyText(r: RecipientOutcome): string {
  const report =
    r.report !== null ? `${describeReport(r.report, r.reportText ?? undefined)} (code ${r.report})` : '';
  const receipt =
    r.receiptReport !== null ? `receipt: ${describeReport(r.receiptReport)} (code ${r.receiptReport})` : '';
  switch (r.status) {
    case 'pending':
      return 'Never requested: nothing has gone to the gateway for this number yet.';
    case 'sending':
      return 'Being requested now.';
    case 'unknown':
      return r.report !== null
        ? `The gateway answered ${report}, which does not say whether it took the message. Not re-sent, so it can't go twice.`
        : `The request may have reached the gateway, but no answer came back (${r.reportText ?? 'no reason recorded'}). Not re-sent, so it can't go twice.`;
    case 'accepted':
    case 'queued':
      return r.receiptOverdue
        ? `${report || 'Accepted'}; no receipt yet after an hour (receipts can be late or lost).`
        : `${report || 'Accepted'}; waiting for the delivery receipt.`;
    case 'delivered':
      return receipt ? `Delivered — ${receipt}.` : 'Delivered.';
    case 'failed':
      return `Not delivered — ${receipt || report || 'no reason given'}.`;
    case 'rejected':
      return report || r.reportText || 'Not sent.';
  }
}

/** A number with its contact's name, when it is a contact. */
export function NumberWithName({ number, names }: { number: string; names: ReadonlyMap<string, string> }) {
  const name = names.get(number);
  return name ? (
    <>
      <span className="contact-name">{name}</span>{' '}
      <span className="muted small">{displayNumber(number)}</span>
    </>
  ) : (
    <>{displayNumber(number)}</>
  );
}

/** The one-line summary of `rows` ("3 delivered · 1 failed · 2 pending"). */
export function SummaryLine({ rows }: { rows: readonly RecipientOutcome[] }) {
  const c = summarize(rows);
  const parts = (Object.keys(GROUP_LABELS) as RowGroup[])
    .filter((g) => c[g] > 0)
    .map((g) => `${c[g].toLocaleString()} ${GROUP_LABELS[g]}`);
  return (
    <span data-testid="row-summary">
      {plural(rows.length, 'recipient')}
      {parts.length ? `: ${parts.join(' · ')}` : ''}
    </span>
  );
}

/** A row of a table: a campaign's rows also say how many sends reached it and whether it opted out. */
export type TableRow = RecipientOutcome & { attempts?: number; optedOut?: boolean };

const OPTED_OUT_WORDS = 'On the opt-out list: never sent to again.';

/** whyText, and that the number opted out when it did. */
const rowWhy = (r: TableRow): string => (r.optedOut ? `${whyText(r)} ${OPTED_OUT_WORDS}` : whyText(r));

/** The per-recipient report as CSV (number first, as the exports always had it). */
export function recipientsCsv(rows: readonly TableRow[], names: ReadonlyMap<string, string>): string {
  const fields = [
    'number',
    'status',
    'report',
    'report text',
    'receipt',
    'message id',
    'name',
    'why',
    'attempts',
    'opted out',
  ];
  const data = rows.map((r) => [
    r.to,
    r.status,
    r.report ?? '',
    r.report !== null ? describeReport(r.report, r.reportText ?? undefined) : '',
    r.receiptReport !== null ? describeReport(r.receiptReport) : '',
    r.messageIdentifier ?? '',
    names.get(r.to) ?? '',
    rowWhy(r),
    String(r.attempts ?? 1),
    r.optedOut ? 'yes' : '',
  ]);
  // A contact's name is the user's text: a spreadsheet must not run it as a formula. Report codes
  // such as -3 are numbers, not formulae, and stay as they are.
  const escapeFormulae = /^(?![-+]?\d+$)[=+\-@\t\r]/;
  return `${Papa.unparse({ fields, data }, { escapeFormulae, newline: '\r\n' })}\r\n`;
}

export function RecipientTable({
  rows,
  names,
  testId,
  showAttempts = false,
}: {
  rows: readonly TableRow[];
  names: ReadonlyMap<string, string>;
  testId?: string;
  showAttempts?: boolean;
}) {
  return (
    <table className="table recipients" data-testid={testId}>
      <thead>
        <tr>
          <th>Recipient</th>
          <th>Status</th>
          <th>Why</th>
          {showAttempts ? <th>Sends</th> : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.to} data-group={groupOf(r)}>
            <td>
              <NumberWithName number={r.to} names={names} />
            </td>
            <td>
              <StatusPill status={r.status} />
              {r.receiptOverdue ? <span className="pill no-receipt">no receipt yet</span> : null}
              {r.optedOut ? <span className="pill opted-out">opted out</span> : null}
            </td>
            <td className="muted why">
              {rowWhy(r)}
              {r.messageIdentifier ? <span className="small"> · id {r.messageIdentifier}</span> : null}
            </td>
            {showAttempts ? <td className="muted">{r.attempts ?? 1}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
