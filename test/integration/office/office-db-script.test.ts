// Issue 28: `npm run office-db -- start DIR` starts a PostgreSQL of its own from Debian's package
// (initdb + pg_ctl, no system service) and prints a URL a desk connects to; `stop DIR` stops it.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { havePostgres } from '../../support/office-db.ts';

const run = promisify(execFile);
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe.skipIf(!havePostgres())('npm run office-db', () => {
  it('starts a local PostgreSQL, prints its URL, and stops it', async () => {
    const base = await mkdtemp(join(tmpdir(), 'office-script-'));
    await chmod(base, 0o755);
    const dir = join(base, 'data');
    const script = join(import.meta.dirname, '../../../scripts/office-db.ts');
    const env = { ...process.env, MESSENGER_OFFICE_PASSWORD: 'try-it-locally' };
    cleanups.push(async () => {
      await run(process.execPath, [script, 'stop', dir], { env }).catch(() => undefined);
      await rm(base, { recursive: true, force: true });
    });
    const started = await run(process.execPath, [script, 'start', dir], { env });
    const url = /^URL: (postgres:\/\/\S+)$/m.exec(started.stdout)?.[1];
    expect(url).toMatch(/^postgres:\/\/messenger@127\.0\.0\.1:\d+\/messenger$/);
    expect(started.stdout).not.toContain('try-it-locally');
    const u = new URL(url!);
    const c = new pg.Client({
      host: u.hostname,
      port: Number(u.port),
      user: 'messenger',
      database: 'messenger',
      password: 'try-it-locally',
    });
    await c.connect();
    expect((await c.query('SELECT current_user AS u')).rows[0]).toEqual({ u: 'messenger' });
    await c.end();
    // a wrong password is refused (SCRAM over TCP)
    const wrong = new pg.Client({
      host: u.hostname,
      port: Number(u.port),
      user: 'messenger',
      database: 'messenger',
      password: 'nope',
    });
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);

    const stopped = await run(process.execPath, [script, 'stop', dir], { env });
    expect(stopped.stdout).toContain('stopped');
    const after = new pg.Client({
      host: u.hostname,
      port: Number(u.port),
      user: 'messenger',
      database: 'messenger',
      password: 'try-it-locally',
    });
    await expect(after.connect()).rejects.toThrow(/ECONNREFUSED/);
  });
});
