// submitMessage writes a request's rows with multi-row INSERTs (50 rows a statement): the records keep
// SendTo order, every row is stored under its own MessageIdentifier, the network queue entry covers
// exactly the dispatched rows, and a MessageIdentifier that collides with a stored one makes the
// statement write nothing and go again with new identifiers.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAccount } from '../../../gateway/accounts.ts';
import type { Account } from '../../../gateway/accounts.ts';
import { startGateway } from '../../../gateway/server.ts';
import type { RunningGateway } from '../../../gateway/server.ts';
import { newMessageIdentifier, submitMessage } from '../../../gateway/submit.ts';
import { REPORT } from '../../../protocol/reports.ts';

const ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (cleanups.length) await cleanups.pop()!();
});

async function gateway(): Promise<{ gw: RunningGateway; account: Account }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-submit-'));
  // Receipts far away and no network drain during the test: the rows stay as submit wrote them.
  const gw = await startGateway({ dataDir, port: 0, quiet: true, receiptDelayMs: 3_600_000 });
  cleanups.push(async () => {
    await gw.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const account = createAccount(gw.ctx.db, {
    username: 'chunks',
    pin: 'chunks1',
    credit: 1_000_000 * 10_000,
  });
  return { gw, account };
}

/** The identifier `steps` calls after `id` at the same millisecond. */
function after(id: string, steps: number): string {
  const seq = id.slice(7);
  let v = 0;
  for (const c of seq) v = v * ALPHABET.length + ALPHABET.indexOf(c);
  v = (v + steps) % ALPHABET.length ** seq.length;
  let out = '';
  for (let i = 0; i < seq.length; i++) {
    out = ALPHABET[v % ALPHABET.length]! + out;
    v = Math.floor(v / ALPHABET.length);
  }
  return id.slice(0, 7) + out;
}

describe('submitMessage: rows written 50 a statement', () => {
  it('keeps SendTo order, stores every row under its identifier and queues the dispatched range', async () => {
    const { gw, account } = await gateway();
    const recipients = Array.from({ length: 123 }, (_, i) =>
      i === 61 ? '12ab' : `447700900${String(i).padStart(3, '0')}`,
    );
    const records = submitMessage(gw.ctx, { account, recipients, content: { kind: 'text', text: 'Chunks' } });
    expect(records).toHaveLength(123);
    expect(new Set(records.map((r) => r.messageIdentifier)).size).toBe(123);
    expect(records[61]!.report).toBe(REPORT.invalidNumber);
    const rows = gw.ctx.db
      .prepare(
        'SELECT id, message_identifier AS mid, recipient, status FROM messages WHERE account_id = ? ORDER BY id',
      )
      .all(account.id) as Array<{ id: number; mid: string; recipient: string; status: string }>;
    expect(rows.map((r) => r.mid)).toEqual(records.map((r) => r.messageIdentifier));
    expect(rows.map((r) => r.recipient)).toEqual(recipients.map((r) => r.trim()));
    expect(rows[61]!.status).toBe('rejected');
    const dispatched = rows.filter((r) => r.status === 'dispatched').map((r) => r.id);
    expect(dispatched).toHaveLength(122);
    const queued = gw.ctx.db
      .prepare('SELECT first_message_id AS a, last_message_id AS b FROM network_queue')
      .all() as Array<{
      a: number;
      b: number;
    }>;
    // Drained already or still queued: either way the entry spanned exactly the dispatched rows.
    if (queued.length > 0)
      expect(queued).toEqual([{ a: dispatched[0], b: dispatched[dispatched.length - 1] }]);
  });

  it('retries a statement whose identifier collides with a stored one, with new identifiers', async () => {
    const { gw, account } = await gateway();
    const fixed = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(fixed);
    // submit takes one identifier for the request, then one per row: the first row's is two on.
    const firstRow = after(newMessageIdentifier(fixed), 2);
    // A stored message (written here as any earlier request would have) already has that identifier.
    gw.ctx.db
      .prepare(
        `INSERT INTO messages (message_identifier, account_id, charged_account_id, request_id, recipient, content, report, status)
         VALUES (?, ?, ?, 'earlier', '447700900500', '{}', ?, 'rejected')`,
      )
      .run(firstRow, account.id, account.id, REPORT.invalidNumber);
    const records = submitMessage(gw.ctx, {
      account,
      recipients: ['447700900501', '447700900502', '447700900503'],
      content: { kind: 'text', text: 'y' },
    });
    expect(records.map((r) => r.report)).toEqual([REPORT.accepted, REPORT.accepted, REPORT.accepted]);
    expect(records.map((r) => r.messageIdentifier)).not.toContain(firstRow);
    const stored = gw.ctx.db
      .prepare('SELECT message_identifier AS mid, recipient FROM messages WHERE account_id = ? ORDER BY id')
      .all(account.id) as Array<{ mid: string; recipient: string }>;
    expect(stored).toEqual([
      { mid: firstRow, recipient: '447700900500' },
      ...records.map((r, i) => ({ mid: r.messageIdentifier, recipient: `44770090050${i + 1}` })),
    ]);
  });
});
