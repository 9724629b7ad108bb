// The per-recipient status table (renderer/components/RecipientTable.tsx): every row in one group,
// the summary counting exactly the rows given, unknown rows saying why and that they are never
// re-sent, pending (never requested) said differently, an overdue receipt said, contact names
// beside numbers, and the CSV keeping number first with the name and the reason.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RecipientOutcome } from '../../../preload/api.ts';
import Papa from 'papaparse';
import {
  RecipientTable,
  groupOf,
  recipientsCsv,
  summarize,
  whyText,
} from '../../../renderer/components/RecipientTable.tsx';

const row = (to: string, over: Partial<RecipientOutcome> = {}): RecipientOutcome => ({
  to,
  status: 'accepted',
  messageIdentifier: null,
  report: null,
  reportText: null,
  classification: null,
  receiptReport: null,
  receiptAt: null,
  receiptOverdue: false,
  ...over,
});

const ROWS: RecipientOutcome[] = [
  row('447700900001', { status: 'delivered', receiptReport: '0', report: '-3' }),
  row('447700900002', { status: 'accepted', report: '-3' }),
  row('447700900003', { status: 'accepted', report: '-3', receiptOverdue: true }),
  row('447700900004', { status: 'rejected', report: '2' }),
  row('447700900005', { status: 'failed', receiptReport: '76' }),
  row('447700900006', { status: 'unknown', reportText: 'connection reset' }),
  row('447700900007', { status: 'pending' }),
  row('447700900008', { status: 'sending' }),
  row('447700900009', { status: 'queued', report: '-2' }),
];

describe('RecipientTable', () => {
  it('puts every row in one group; the summary counts exactly those rows', () => {
    expect(ROWS.map(groupOf)).toEqual([
      'delivered',
      'accepted',
      'noReceipt',
      'failed',
      'failed',
      'unknown',
      'pending',
      'sending',
      'accepted',
    ]);
    const c = summarize(ROWS);
    expect(c).toEqual({
      delivered: 1,
      accepted: 2,
      noReceipt: 1,
      failed: 2,
      unknown: 1,
      pending: 1,
      sending: 1,
    });
    expect(Object.values(c).reduce((a, b) => a + b, 0)).toBe(ROWS.length);
  });

  it('says why: unknown may have reached the gateway and is never re-sent; pending was never requested', () => {
    const unknown = whyText(ROWS[5]!);
    expect(unknown).toContain('may have reached the gateway');
    expect(unknown).toContain('connection reset');
    expect(unknown).toContain("Not re-sent, so it can't go twice");
    // An answer with a code we cannot read is unknown too, and says so with the code.
    expect(whyText(row('1', { status: 'unknown', report: '4711' }))).toMatch(
      /answered .*code 4711.*Not re-sent/,
    );
    const pending = whyText(ROWS[6]!);
    expect(pending).toMatch(/^Never requested/);
    expect(pending).not.toContain('may have reached');
    expect(whyText(ROWS[2]!)).toContain('no receipt yet after an hour');
    expect(whyText(ROWS[4]!)).toMatch(/^Not delivered — receipt: .*\(code 76\)/);
    expect(whyText(ROWS[3]!)).toContain('(code 2)');
  });

  it('shows the contact name beside the number, and pending and unknown pills apart', () => {
    const names = new Map([['447700900006', 'Ada Lovelace']]);
    const html = renderToStaticMarkup(<RecipientTable rows={ROWS} names={names} />);
    expect(html).toContain(
      '<span class="contact-name">Ada Lovelace</span> <span class="muted small">+447700900006</span>',
    );
    expect(html).toContain('data-status="pending">pending<');
    expect(html).toContain('data-status="unknown">unknown<');
    expect(html).toContain('no receipt yet');
  });

  it('exports CSV with the number first, the name and the reason', () => {
    const csv = recipientsCsv(
      [ROWS[5]!, { ...ROWS[0]!, attempts: 2, optedOut: true }],
      new Map([['447700900001', 'Ada, Countess']]),
    );
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('number,status,report,report text,receipt,message id,name,why,attempts,opted out');
    expect(lines[1]).toMatch(/^447700900006,unknown,,,,,,"The request may have reached the gateway.*",1,$/);
    expect(lines[2]).toMatch(/^447700900001,delivered,-3,.*,"Ada, Countess",.*,2,yes$/);
    expect(lines[2]).toContain('On the opt-out list: never sent to again.');
  });

  it('never lets a contact name run as a spreadsheet formula', () => {
    const csv = recipientsCsv([ROWS[0]!], new Map([['447700900001', '=HYPERLINK("http://x","y")']]));
    const cells = Papa.parse<string[]>(csv.trim()).data[1]!;
    expect(cells[2]).toBe('-3');
    expect(cells[6]).toBe('\'=HYPERLINK("http://x","y")');
  });
});
