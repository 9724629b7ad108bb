// What the command line prints: a result (text or --json), a send's table of recipients with its
// counts and warnings, a progress bar on the terminal; and the exit code each outcome gives.
import { LIMITS } from '../../protocol/limits.ts';
import type { Progress, RecipientResult, Result, SendResult } from '../client/results.ts';
import { EXIT } from './args.ts';
import type { CliIO } from './args.ts';

export function printResult<T>(io: CliIO, json: boolean, r: Result<T>, show: (value: T) => string): number {
  if (json) io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  if (r.outcome === 'ok') {
    if (!json) io.stdout.write(`${show(r.value)}\n`);
    return EXIT.ok;
  }
  if (r.outcome === 'rejected') {
    io.stderr.write(`rejected by the gateway (${r.code}): ${r.reason}\n`);
    return EXIT.failed;
  }
  if (r.outcome === 'unsent') {
    io.stderr.write(`not sent: ${r.reason}\n`);
    return EXIT.failed;
  }
  io.stderr.write(`UNKNOWN: ${r.reason}\n`);
  return EXIT.unknown;
}

function exitFor(result: SendResult): number {
  return result.outcome === 'ok' ? EXIT.ok : result.outcome === 'unknown' ? EXIT.unknown : EXIT.failed;
}

export function printSend(io: CliIO, json: boolean, result: SendResult): number {
  if (json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return exitFor(result);
  }
  io.stdout.write(formatTable(result.recipients));
  const c = result.counts;
  const parts = [
    `${c.accepted} accepted`,
    `${c.rejected} rejected`,
    `${c['not-sent']} not sent`,
    `${c.unknown} unknown`,
  ];
  io.stdout.write(
    `\n${result.recipients.length} recipients in ${result.requests} request${result.requests === 1 ? '' : 's'}: ${parts.join(', ')}` +
      (result.duplicatesRemoved > 0 ? ` (${result.duplicatesRemoved} duplicates removed)` : '') +
      (result.libraryNumber !== undefined ? `; library number ${result.libraryNumber}` : '') +
      '\n',
  );
  if (result.error !== undefined) {
    io.stderr.write(
      `error in request ${result.error.request}: ${result.error.message}${result.error.code !== undefined ? ` (report ${result.error.code})` : ''}\n`,
    );
  }
  if (result.cancelled) io.stderr.write('cancelled: the rest was not sent\n');
  if (c.unknown > 0) {
    io.stderr.write(
      'UNKNOWN: some messages may or may not have been sent; they were not sent again. Check before resending.\n',
    );
  }
  return exitFor(result);
}

/** One row per recipient; a run of identical results (e.g. 350 × invalid login) is one line. */
export function formatTable(rows: readonly RecipientResult[]): string {
  const lines: string[][] = [['NUMBER', 'STATUS', 'REPORT', 'MESSAGE ID', 'TEXT']];
  for (let i = 0; i < rows.length;) {
    const row = rows[i]!;
    let j = i + 1;
    if (row.messageIdentifier === undefined) {
      while (j < rows.length && sameOutcome(rows[j]!, row)) j++;
    }
    const more = j - i - 1;
    lines.push([
      more > 0 ? `${row.number} +${more} more` : row.number,
      row.status,
      row.report ?? '',
      row.messageIdentifier ?? '',
      row.text,
    ]);
    i = j;
  }
  const widths = lines[0]!.map((_, col) => Math.max(...lines.map((l) => (l[col] ?? '').length)));
  return (
    lines
      .map((l) =>
        l.map((cell, col) => (col === l.length - 1 ? cell : cell.padEnd(widths[col] ?? 0))).join('  '),
      )
      .join('\n') + '\n'
  );
}

function sameOutcome(a: RecipientResult, b: RecipientResult): boolean {
  return (
    a.messageIdentifier === undefined && a.status === b.status && a.report === b.report && a.text === b.text
  );
}

export function progressBar(io: CliIO, json: boolean, total: number): { onProgress?: (p: Progress) => void } {
  // a bar only when the send takes more than one request
  if (json || total <= LIMITS.maxRecipientsPerRequest || io.stderr.isTTY !== true) return {};
  return {
    onProgress: (p) => {
      const width = 30;
      const filled = Math.round((p.done / Math.max(p.total, 1)) * width);
      io.stderr.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} recipients, ${p.requests} requests`,
      );
      if (p.done >= p.total) io.stderr.write('\n');
    },
  };
}
