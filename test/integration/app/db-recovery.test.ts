// Issue 25, item 3: a damaged database is never served silently nor replaced silently. 16 KiB of
// garbage in the middle of the file, and a file cut to half its length, are both found at start;
// the app then answers only database.* (every other call says the database is damaged, naming the
// file) and the three choices work: restore the latest backup (the damaged file kept beside it),
// export what can still be read, start a new database (the damaged file kept beside it). Backups:
// before a migration and daily, each checked; a restore brings the backup's messages back.
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
  cpSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createMessengerApp } from '../../../main/services/app.ts';
import { startTestGateway } from '../../support/gateway.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import { openAppStore } from '../../../main/store/app-store.ts';
import { openAppDb } from '../../../main/store/db.ts';
import { listBackups, backupNowSync } from '../../../main/store/backups.ts';
import { checkDatabase, checkDatabaseAtStart } from '../../../main/store/db-health.ts';
import { fileURLToPath } from 'node:url';

const MESSAGES = 20_000;
const dirs: string[] = [];
const apps: MessengerApp[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (apps.length > 0) await apps.pop()?.close();
  while (cleanups.length > 0) await cleanups.pop()?.();
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

/**
 * A data folder whose database holds MESSAGES inbound messages and a checked backup of them; with
 * `account` (a gateway's), they are that account's replies (issue 25: the Inbox is one account's).
 */
function dataFolder(account?: { username: string; url: string }): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'messenger-damage-'));
  dirs.push(dir);
  const file = join(dir, 'messenger.sqlite');
  const store = openAppStore(file, { defaultCountry: 'GB' });
  const owner = account
    ? store.accounts.save({ username: account.username, primaryUrl: account.url }).id
    : '';
  store.app.transaction(() => {
    for (let i = 0; i < MESSAGES; i++)
      store.conversations.storeInbound(
        owner,
        {
          from: String(447700100000 + (i % 500)),
          to: '447700900999',
          text: `reply ${i} ${'x'.repeat(80)}`,
          timestamp: 't',
        },
        `test:${i}`,
      );
    store.contacts.add({ name: 'Ada', number: '07700 900001' });
  });
  backupNowSync(store.app.db, file, 'manual');
  store.close();
  return { dir, file };
}

async function start(dir: string): Promise<MessengerApp> {
  const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
  apps.push(a);
  return a;
}

function inboundCount(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM messages WHERE direction = 'in'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function garbageInTheMiddle(file: string): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, randomBytes(16 * 1024), 0, 16 * 1024, Math.floor(statSync(file).size / 2));
  closeSync(fd);
}

async function expectDamaged(a: MessengerApp, file: string): Promise<void> {
  // Found by the bounded check at start, or by the thorough one that runs after it.
  let status = await a.api.database.status();
  for (let i = 0; i < 600 && status.state !== 'damaged'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    status = await a.api.database.status();
  }
  expect(status).toMatchObject({ state: 'damaged', file, keptAs: null });
  expect(status.problem).toBeTruthy();
  expect(status.backups).toHaveLength(1);
  await expect(a.api.contacts.list()).rejects.toMatchObject({
    code: 'database-damaged',
    message: expect.stringContaining(file),
  });
  await expect(a.call('accounts.current')).rejects.toMatchObject({ code: 'database-damaged' });
}

describe('a damaged database at start', () => {
  it(
    '16 KiB of garbage in the middle: found, readable rows exported, the latest backup restored',
    { timeout: 120_000 },
    async () => {
      const { dir, file } = dataFolder();
      garbageInTheMiddle(file);
      expect(checkDatabase(file).ok).toBe(false);
      const atStart = checkDatabaseAtStart(file).ok;
      const a = await start(dir);
      const told = new Promise((r) => a.events.on('database:damaged', r));
      await expectDamaged(a, file);
      // Not found by the bounded check at start (the middle of a table): the thorough one said so.
      if (atStart) await told;

      const exported = await a.api.database.exportReadable();
      expect(exported.messages).toBeGreaterThan(0);
      expect(exported.messages).toBeLessThanOrEqual(MESSAGES);
      const csv = readFileSync(join(exported.folder, 'messages.csv'), 'utf8');
      expect(csv.split(/\r?\n/)[0]).toBe('date,direction,peer,local,text,status,gatewayTimestamp');
      expect(csv).toContain('reply 0 ');

      const damagedBytes = readFileSync(file);
      const restored = await a.api.database.restoreLatest();
      expect(restored.state).toBe('ok');
      expect(restored.keptAs).toMatch(/messenger\.sqlite\.damaged-/);
      expect(readFileSync(restored.keptAs ?? '')).toEqual(damagedBytes); // kept beside it, untouched
      // The app now serves the restored database (every message of the backup is there: below).
      expect((await a.api.contacts.list()).map((c) => c.name)).toEqual(['Ada']);
      await a.close();
      expect(checkDatabase(file).ok).toBe(true);
      expect(inboundCount(file)).toBe(MESSAGES);
    },
  );

  it(
    'a file cut to half its length: found; a new database started, the damaged one kept beside it',
    { timeout: 120_000 },
    async () => {
      const { dir, file } = dataFolder();
      const size = statSync(file).size;
      truncateSync(file, Math.floor(size / 2));
      // found by the bounded check at start already
      expect(checkDatabaseAtStart(file).ok).toBe(false);
      const a = await start(dir);
      await expectDamaged(a, file);
      const exported = await a.api.database.exportReadable();
      expect(exported.messages).toBeLessThan(MESSAGES);

      const fresh = await a.api.database.startNew();
      expect(fresh).toMatchObject({ state: 'ok', file });
      expect(statSync(fresh.keptAs ?? '').size).toBe(Math.floor(size / 2));
      expect(await a.api.inbox.unreadTotal()).toBe(0);
      expect(await a.api.contacts.list()).toEqual([]);
      await a.api.contacts.add({ name: 'Bo', number: '07700 900002' });
      await a.close();
      const again = await start(dir);
      expect(await again.api.database.status()).toMatchObject({ state: 'ok', keptAs: null });
      expect((await again.api.contacts.list()).map((c) => c.name)).toEqual(['Bo']);
    },
  );
});

describe('damage that appears while the app runs', () => {
  it('is said as database-damaged, never as an internal error', { timeout: 120_000 }, async () => {
    const gw = await startTestGateway();
    cleanups.push(() => gw.close());
    const { dir, file } = dataFolder({ username: gw.username, url: gw.url });
    const a = await start(dir);
    // the Inbox is the signed-in account's: these replies are the gateway account's
    await a.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    expect(await a.api.inbox.unreadTotal()).toBe(MESSAGES);
    expect((await a.api.database.status()).state).toBe('ok');
    garbageInTheMiddle(file);
    await expect(a.api.inbox.exportMessages()).rejects.toMatchObject({
      code: 'database-damaged',
      message: expect.stringMatching(/damaged/),
    });
  });
});

describe('automatic backups', () => {
  it('backs the file up before a migration, checked, the schema it had', () => {
    const dir = mkdtempSync(join(tmpdir(), 'messenger-migrate-'));
    dirs.push(dir);
    const file = join(dir, 'messenger.sqlite');
    const all = fileURLToPath(new URL('../../../main/store/migrations/', import.meta.url));
    const older = join(dir, 'migrations-015');
    cpSync(all, older, { recursive: true });
    for (const f of readdirSync(older)) if (Number(f.slice(0, 3)) > 15) rmSync(join(older, f));
    openAppDb(file, { migrationsDir: older }).close();
    expect(listBackups(file)).toEqual([]);

    const app = openAppDb(file);
    const newest = app.version();
    app.close();
    const [b] = listBackups(file);
    expect(b?.reason).toBe('before-migration-16');
    expect(checkDatabase(b?.file ?? '').ok).toBe(true);
    const copy = new DatabaseSync(b?.file ?? '', { readOnly: true });
    expect(copy.prepare('SELECT max(version) AS v FROM schema_version').get()).toEqual({ v: 15 });
    copy.close();
    expect(newest).toBeGreaterThanOrEqual(16);
    // A second open migrates nothing, so backs nothing up.
    openAppDb(file).close();
    expect(listBackups(file)).toHaveLength(1);
  });

  it(
    'takes the daily backup while running, once a day, the newest few kept',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'messenger-daily-'));
      dirs.push(dir);
      const file = join(dir, 'messenger.sqlite');
      const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {}, firstBackupCheckMs: 10 });
      apps.push(a);
      for (let i = 0; i < 200 && listBackups(file).length === 0; i++)
        await new Promise((r) => setTimeout(r, 25));
      const [daily] = listBackups(file);
      expect(daily?.reason).toBe('daily');
      expect(checkDatabase(daily?.file ?? '').ok).toBe(true);
      expect(existsSync(`${daily?.file}.partial`)).toBe(false);
      await a.close();
      apps.pop();
      // A run within the day makes none; manual backups beyond the last 7 push the oldest out.
      const b = await createMessengerApp({ dataDir: dir, env: {}, log: () => {}, firstBackupCheckMs: 10 });
      apps.push(b);
      await new Promise((r) => setTimeout(r, 300));
      expect(listBackups(file).map((x) => x.reason)).toEqual(['daily']);
      for (let i = 0; i < 8; i++) await b.api.database.backupNow();
      const kept = listBackups(file);
      expect(kept).toHaveLength(7);
      expect(kept.every((x) => x.reason === 'manual')).toBe(true);
    },
  );
});
