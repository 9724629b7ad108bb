// Issue 25: automatic backups of the app database, in "<data>/backups/": daily while the app runs
// (node:sqlite's online backup, page by page, so the app keeps working) and before every migration
// (VACUUM INTO: synchronous, before the first migration opens its transaction). Each copy is
// written under a temporary name, checked (quick_check on the copy), then renamed: a backup listed
// is one that was checked. The newest BACKUP_KEEP are kept.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { DatabaseSync, backup } from 'node:sqlite';
import { dirname, join } from 'node:path';
import { checkDatabase } from './db-health.ts';

export const BACKUP_KEEP = 7;
const NAME = /^messenger-(\d{13})-([\w-]+)\.sqlite$/;

export interface BackupInfo {
  file: string;
  /** When it was taken, ms since the epoch. */
  at: number;
  /** "daily", "before-migration-16", "manual", "before-restore". */
  reason: string;
  bytes: number;
}

/** The backups folder of the database `dataFile`. */
export function backupsDir(dataFile: string): string {
  return join(dirname(dataFile), 'backups');
}

/** The checked backups of `dataFile`, newest first. */
export function listBackups(dataFile: string): BackupInfo[] {
  const dir = backupsDir(dataFile);
  // No folder, or something else in its place (the backup into it fails and says so): none.
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .map((name) => NAME.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => {
      const file = join(dir, m[0]);
      return { file, at: Number(m[1]), reason: m[2] ?? '', bytes: statSync(file).size };
    })
    .sort((a, b) => b.at - a.at);
}

function target(dataFile: string, reason: string): { tmp: string; final: string } {
  const dir = backupsDir(dataFile);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let at = Date.now();
  // two backups in one millisecond (tests): the second waits for the next name
  while (existsSync(join(dir, `messenger-${at}-${reason}.sqlite`))) at++;
  const final = join(dir, `messenger-${at}-${reason}.sqlite`);
  return { tmp: `${final}.partial`, final };
}

/** Checks the copy `tmp`, renames it to `final`, keeps the newest BACKUP_KEEP; removes `tmp` on failure. */
function seal(dataFile: string, tmp: string, final: string): BackupInfo {
  const health = checkDatabase(tmp);
  if (!health.ok) {
    rmSync(tmp, { force: true });
    throw new Error(`the backup failed its check: ${health.problem}`);
  }
  renameSync(tmp, final);
  for (const old of listBackups(dataFile).slice(BACKUP_KEEP)) rmSync(old.file, { force: true });
  const info = listBackups(dataFile).find((b) => b.file === final);
  if (!info) throw new Error(`the backup ${final} is missing after it was written`);
  return info;
}

/** A backup of the open database `db` (file `dataFile`) with VACUUM INTO, synchronously. */
export function backupNowSync(db: DatabaseSync, dataFile: string, reason: string): BackupInfo {
  const { tmp, final } = target(dataFile, reason);
  try {
    db.prepare('VACUUM INTO ?').run(tmp);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return seal(dataFile, tmp, final);
}

/** A backup of the open database `db` with SQLite's online backup (the app keeps running meanwhile). */
export async function backupNow(db: DatabaseSync, dataFile: string, reason: string): Promise<BackupInfo> {
  const { tmp, final } = target(dataFile, reason);
  try {
    await backup(db, tmp, { rate: 1000 });
    // The copy is in the source's journal mode (WAL): fold it into one file before it is checked.
    const copy = new DatabaseSync(tmp);
    try {
      copy.exec('PRAGMA journal_mode = DELETE');
    } finally {
      copy.close();
    }
  } catch (err) {
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
    throw err;
  }
  return seal(dataFile, tmp, final);
}
