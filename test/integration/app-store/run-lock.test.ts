// Issue 17, item 18: a run is alive while its process holds its lock, and dead once the process is
// gone, however it ended (kill -9 here) and whatever pid comes next: the outbox journal recovers a
// crashed run's batches even when its pid has been reused.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { holdRunLock, isRunAlive, releaseRunLock } from '../../../main/store/run-lock.ts';

const dir = mkdtempSync(join(tmpdir(), 'messenger-run-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dbFile = join(dir, 'messenger.db');
const MODULE = pathToFileURL(join(import.meta.dirname, '../../../main/store/run-lock.ts')).href;

describe('run lock', () => {
  it('is held while the process lives and free after kill -9', async () => {
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(MODULE)}); m.holdRunLock(${JSON.stringify(dbFile)}, 'child-run'); console.log('ready'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    expect(isRunAlive(dbFile, 'child-run')).toBe(true);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect(isRunAlive(dbFile, 'child-run')).toBe(false);
    expect(isRunAlive(dbFile, 'never-ran')).toBe(false);
  });

  it("is this run's own until released", () => {
    holdRunLock(dbFile, 'me');
    expect(isRunAlive(dbFile, 'me')).toBe(true);
    releaseRunLock(dbFile, 'me');
    expect(isRunAlive(dbFile, 'me')).toBe(false);
  });
});
