// Issue 28: an office database URL that cannot be used (`--office`, the deploy policy) stops the
// start with one plain sentence, and the desk's own store is closed first: its write-ahead log
// checkpointed and removed, this run's lock given back (main/store/run-lock.ts), so the data folder
// is left as a closed app leaves it.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { Cleanups } from '../../support/office-db.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'office-bad-url-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** What a closed app leaves: no write-ahead log beside the database, no run lock held. */
function closedAsAnAppCloses(dir: string): void {
  expect(existsSync(join(dir, 'messenger.sqlite'))).toBe(true);
  expect(existsSync(join(dir, 'messenger.sqlite-wal'))).toBe(false);
  expect(existsSync(join(dir, 'runs')) ? readdirSync(join(dir, 'runs')) : []).toEqual([]);
}

describe('an office database URL that cannot be used', () => {
  it('the app does not start, says why, and closes its store', async () => {
    const dir = await dataDir();
    await expect(
      createMessengerApp({ dataDir: dir, env: {}, log: () => {}, office: 'mysql://clerk@db.example/office' }),
    ).rejects.toThrow(
      'the office database URL given with --office must start with postgres:// (postgres://USER@HOST:PORT/DATABASE)',
    );
    closedAsAnAppCloses(dir);
    // the folder is usable at once by the next start
    const app = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    await app.close();
  });

  it('the web shell exits 1 with that one sentence, its data folder closed', async () => {
    const dir = await dataDir();
    const child = spawn(
      join(ROOT, 'node_modules/.bin/node'),
      ['main/web.ts', '--no-build', '--port', '0', '--data', dir, '--office', 'postgres://clerk@db.example'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe('the office database URL given with --office names no database (…/DATABASE)\n');
    closedAsAnAppCloses(dir);
  }, 60_000);
});
