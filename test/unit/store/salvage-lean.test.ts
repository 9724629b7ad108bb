// Issue 27 item 6: "export what can still be read" of a damaged database (main/store/salvage.ts)
// includes the recipients a send to many kept in the journal's lean table (app migration 055: no
// `messages` row), with their send's time and ReplyTo, stepping over a damaged page of that table as
// it does over one of `messages`; a file from before the table exports its messages with no problem.
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import { openAppDb } from '../../../main/store/db.ts';
import { salvageReadable } from '../../../main/store/salvage.ts';
import { putLeanJob } from '../../support/lean-rows.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const AT = Date.UTC(2026, 10, 27, 9, 0, 0);

function filled(recipients: number, text = 'Doors open at 9') {
  const dir = mkdtempSync(join(tmpdir(), 'salvage-lean-'));
  dirs.push(dir);
  const file = join(dir, 'messenger.sqlite');
  const store = openAppStore(file);
  const account = store.accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' }).id;
  store.conversations.storeInbound(account, {
    from: '447700900999',
    to: '447700999000',
    text: 'A reply',
    timestamp: '261127090000',
    receivedAt: AT - 1000,
  });
  putLeanJob(store.app, {
    accountId: account,
    at: AT,
    content: { kind: 'text', text, replyTo: '447700999000' },
    recipients: Array.from({ length: recipients }, (_, i) => ({
      peer: `4477009${String(i).padStart(5, '0')}`,
      status: i % 2 === 0 ? 'accepted' : 'rejected',
    })),
  });
  store.app.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  store.close();
  return { dir, file };
}

const csv = (folder: string) =>
  Papa.parse<Record<string, string>>(readFileSync(join(folder, 'messages.csv'), 'utf8'), { header: true })
    .data;

describe('salvage: the lean recipients of a send exported with the messages', () => {
  it('the numbers of a send not ended yet, kept on its batch (app migration 059), with its state', () => {
    const dir = mkdtempSync(join(tmpdir(), 'salvage-lean-'));
    dirs.push(dir);
    const file = join(dir, 'messenger.sqlite');
    const store = openAppStore(file);
    const job = store.outbox.createJob(['447700900001', '447700900002', '447700900003'], {
      kind: 'text',
      text: 'Doors open at 9',
      replyTo: '447700999000',
    });
    store.conversations.open('', '447700900002'); // a thread row now, not in the value
    store.app.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    store.close();
    const r = salvageReadable(file, dir);
    expect(r).toMatchObject({ messages: 3, skipped: 0, problems: [] });
    expect(csv(r.folder).map((m) => [m.direction, m.peer, m.text, m.status, m.local, m.date])).toEqual([
      [
        'out',
        '447700900002',
        'Doors open at 9',
        'pending',
        '447700999000',
        new Date(job.createdAt).toISOString(),
      ],
      [
        'out',
        '447700900001',
        'Doors open at 9',
        'pending',
        '447700999000',
        new Date(job.createdAt).toISOString(),
      ],
      [
        'out',
        '447700900003',
        'Doors open at 9',
        'pending',
        '447700999000',
        new Date(job.createdAt).toISOString(),
      ],
    ]);
  });

  it('every recipient, with its send’s time and ReplyTo', () => {
    const { dir, file } = filled(3);
    const r = salvageReadable(file, dir);
    expect(r).toMatchObject({ messages: 4, skipped: 0, problems: [] });
    expect(csv(r.folder)).toEqual([
      {
        date: new Date(AT - 1000).toISOString(),
        direction: 'in',
        peer: '447700900999',
        local: '447700999000',
        text: 'A reply',
        status: 'received',
        gatewayTimestamp: '261127090000',
      },
      ...['447700900000', '447700900001', '447700900002'].map((peer, i) => ({
        date: new Date(AT).toISOString(),
        direction: 'out',
        peer,
        local: '447700999000',
        text: 'Doors open at 9',
        status: i % 2 === 0 ? 'accepted' : 'rejected',
        gatewayTimestamp: '',
      })),
    ]);
  });

  it('a damaged page of the lean table is stepped over: the recipients after it are exported', () => {
    const { dir, file } = filled(2000, 'x'.repeat(300));
    const look = openAppDb(file);
    const pageSize = (look.db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    const leaves = (
      look.db
        .prepare(
          "SELECT pageno FROM dbstat WHERE name = 'outbox_recipients' AND pagetype = 'leaf' ORDER BY path",
        )
        .all() as Array<{ pageno: number }>
    ).map((p) => p.pageno);
    look.close();
    expect(leaves.length).toBeGreaterThan(20);
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (leaves[10]! - 1) * pageSize);
    closeSync(fd);
    const r = salvageReadable(file, dir);
    const out = csv(r.folder).filter((m) => m.direction === 'out');
    expect(r.skipped).toBeGreaterThanOrEqual(1);
    // the rows of that leaf page lost (a dozen), the rest read, the last one included
    expect(out.length).toBeGreaterThan(1950);
    expect(out.length).toBeLessThan(2000);
    expect(out.at(-1)?.peer).toBe('447700901999');
  });

  it('a file from before the lean table: its messages, no problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'salvage-lean-old-'));
    dirs.push(dir);
    const before = join(dir, 'migrations');
    mkdirSync(before);
    const all = new URL('../../../main/store/migrations/', import.meta.url).pathname;
    for (const f of readdirSync(all).filter((f) => f.endsWith('.sql') && f < '055'))
      copyFileSync(join(all, f), join(before, f));
    const file = join(dir, 'messenger.sqlite');
    const old = openAppDb(file, { migrationsDir: before });
    old.close();
    const r = salvageReadable(file, dir);
    expect(r).toMatchObject({ messages: 0, skipped: 0, problems: [] });
  });
});
