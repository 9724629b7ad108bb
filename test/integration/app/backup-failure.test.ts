// Issue 25: a backup that fails is said, not only logged. The daily backup onto a full disk (a small
// tmpfs mounted on the backups folder, then filled), and the backup before a migration into a
// backups folder that cannot be made: the app keeps running, its database status names the failure
// in words (and the last good backup stays listed), 'database:backup' tells the window, "Back up
// now" says the same failure, and once there is room it writes a checked backup and the failure ends.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import { openAppStore } from '../../../main/store/app-store.ts';
import { openAppDb } from '../../../main/store/db.ts';
import { backupNowSync, listBackups } from '../../../main/store/backups.ts';
import type { DatabaseStatus } from '../../../preload/api.ts';
import { canMount, fillDisk, smallDisk } from '../../support/small-disk.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function started(dir: string): Promise<{ a: MessengerApp; told: DatabaseStatus[] }> {
  const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {}, firstBackupCheckMs: 10 });
  cleanups.push(() => a.close());
  const told: DatabaseStatus[] = [];
  a.events.on('database:backup', (s) => told.push(s));
  return { a, told };
}

async function until(what: () => boolean, label: string): Promise<void> {
  for (let i = 0; i < 2400 && !what(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!what()) throw new Error(`not seen in 60 s: ${label}`);
}

describe.skipIf(!canMount)('the daily backup onto a full disk', () => {
  it(
    'is said with the folder, the words and the last good backup; Back up now works once there is room',
    {
      timeout: 90_000,
    },
    async () => {
      const dir = folder('messenger-backup-full-');
      const file = join(dir, 'messenger.sqlite');
      // A good backup two days old: the daily one is due at start.
      const store = openAppStore(file, { defaultCountry: 'GB' });
      const good = backupNowSync(store.app.db, file, 'daily');
      store.close();
      const old = Date.now() - 2 * 24 * 3600_000;
      const oldFile = join(dir, 'messenger-old.sqlite');
      renameSync(good.file, oldFile);
      const backups = join(dir, 'backups');
      expect(smallDisk('1m', backups)).toBe(backups);
      cleanups.push(() => execFileSync('umount', [backups]));
      copyFileSync(oldFile, join(backups, `messenger-${old}-daily.sqlite`));
      const filler = join(backups, 'filler');
      fillDisk(filler);

      const { a, told } = await started(dir);
      await until(() => told.length > 0, "'database:backup'");
      const failed = told[0]!;
      expect(failed.backupFailed).toMatchObject({ reason: 'daily', problem: 'the disk is full' });
      expect(failed.backupsFolder).toBe(backups);
      expect(failed.backups.map((b) => b.at)).toEqual([old]);
      // The read for a window opened later says the same.
      expect((await a.api.database.status()).backupFailed?.problem).toBe('the disk is full');
      // Nothing half-written is left in the folder.
      expect(readdirSync(backups).sort()).toEqual(['filler', `messenger-${old}-daily.sqlite`]);

      await expect(a.api.database.backupNow()).rejects.toMatchObject({
        code: 'backup-failed',
        message: expect.stringMatching(/^the backup failed: the disk is full/),
      });
      expect((await a.api.database.status()).backupFailed?.reason).toBe('manual');

      rmSync(filler);
      const written = await a.api.database.backupNow();
      expect(written.reason).toBe('manual');
      const after = await a.api.database.status();
      expect(after.backupFailed).toBeNull();
      expect(after.backups[0]?.file).toBe(written.file);
      expect(told.at(-1)?.backupFailed).toBeNull();
    },
  );
});

describe('the backup before a migration', () => {
  it('failing does not keep the app from starting: it is said until a backup is written', async () => {
    const dir = folder('messenger-backup-migrate-');
    const file = join(dir, 'messenger.sqlite');
    const all = fileURLToPath(new URL('../../../main/store/migrations/', import.meta.url));
    const older = join(dir, 'migrations-015');
    cpSync(all, older, { recursive: true });
    for (const f of readdirSync(older)) if (Number(f.slice(0, 3)) > 15) rmSync(join(older, f));
    openAppDb(file, { migrationsDir: older }).close();
    // A file where the backups folder would be made (root writes anywhere: a mode would not stop it).
    writeFileSync(join(dir, 'backups'), 'not a folder');

    const { a, told } = await started(dir);
    const status = await a.api.database.status();
    expect(status.state).toBe('ok');
    expect(status.backupFailed).toMatchObject({
      reason: 'before-migration-16',
      problem: 'the backups folder cannot be made (a file of that name is in its place)',
    });
    expect(status.backupFailed?.detail).toMatch(/EEXIST|ENOTDIR/);
    expect(status.backups).toEqual([]);
    await expect(a.api.database.backupNow()).rejects.toMatchObject({ code: 'backup-failed' });

    rmSync(join(dir, 'backups'));
    mkdirSync(join(dir, 'backups'));
    await a.api.database.backupNow();
    expect((await a.api.database.status()).backupFailed).toBeNull();
    expect(told.at(-1)?.backupFailed).toBeNull();
    expect(listBackups(file)).toHaveLength(1);
  });
});
