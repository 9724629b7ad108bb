// The release MobileMessengerVersion serves, as an operator sets it: `serve --release-…` flags and
// `release set` / `release show` on the CLI (a child process), and what a client then receives.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../../../gateway/server.ts';
import { releaseFromFlags } from '../../../gateway/release.ts';
import { GatewayClient } from '../../../main/client/gateway-client.ts';

const run = promisify(execFile);
const CLI = new URL('../../../gateway/cli.ts', import.meta.url).pathname;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gateway-release-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args, '--data', dataDir]);
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

async function served(dir: string, release = {}): Promise<Record<string, unknown>> {
  const gw = await startGateway({ dataDir: dir, port: 0, quiet: true, release });
  const client = new GatewayClient({ primaryUrl: gw.url, username: 'x', pin: 'y' });
  try {
    const r = await client.mobileMessengerVersion();
    if (r.outcome !== 'ok') throw new Error(r.reason);
    return { ...r.value };
  } finally {
    await client.close();
    await gw.close();
  }
}

describe('the served release', { timeout: 30_000 }, () => {
  it('serve flags set it; a stored release wins', async () => {
    const flags = releaseFromFlags({
      'release-version': '3.1.0',
      'release-url': 'https://downloads.example.com/Messenger-3.1.0.exe',
      'release-notice': 'Scheduled sends',
      'release-date': '2026-11-20T09:00:00+01:00',
    });
    expect(flags.releaseDate).toBe('2026-11-20T08:00:00Z');
    expect(await served(join(dataDir, 'flags'), flags)).toMatchObject({
      Version: '3.1.0',
      DownloadURL: 'https://downloads.example.com/Messenger-3.1.0.exe',
      ReleaseNotice: 'Scheduled sends',
    });

    const set = await cli(
      'release',
      'set',
      '--release-version',
      '4.0.0-beta.2',
      '--release-url',
      'https://downloads.example.com/Messenger-4.0.0-beta.2.exe',
      '--release-notice',
      'Beta',
      '--release-date',
      '2026-12-01T00:00:00Z',
    );
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('release 4.0.0-beta.2 (2026-12-01T00:00:00Z) stored');
    expect((await cli('release', 'show')).stdout).toContain('4.0.0-beta.2\t2026-12-01T00:00:00Z');
    expect(await served(dataDir, flags)).toMatchObject({ Version: '4.0.0-beta.2', ReleaseNotice: 'Beta' });
  });

  it('refuses a bad version, URL or date with the flag named', async () => {
    const bad = await cli('release', 'set', '--release-version', 'two', '--release-url', 'https://h/x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--release-version must be dotted numbers/);
    const url = await cli('release', 'set', '--release-version', '2.0', '--release-url', 'h/x');
    expect(url.stderr).toMatch(/--release-url must be an absolute URL/);
    const date = await cli(
      'release',
      'set',
      '--release-version',
      '2.0',
      '--release-url',
      'https://h/x',
      '--release-date',
      'soon',
    );
    expect(date.stderr).toMatch(/--release-date must be an ISO 8601 date-time/);
    const missing = await cli('release', 'set', '--release-version', '2.0');
    expect(missing.stderr).toMatch(/--release-url is required/);
  });
});
