// The gateway CLI as a user runs it: `node gateway/cli.ts ...` in a child process, every command
// with --data DIR.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../gateway/cli.ts';
import { parseTags, postForm } from '../../support/gateway.ts';

const run = promisify(execFile);
const NODE = process.execPath; // vitest runs on node_modules/.bin/node (v24)
const CLI = new URL('../../../gateway/cli.ts', import.meta.url).pathname;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gateway-cli-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return cliWith({}, ...args);
}

/** The CLI with extra environment (GATEWAY_PIN); stdin is not a terminal, so nothing is prompted. */
async function cliWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(NODE, [CLI, ...args, '--data', dataDir], {
      env: { ...process.env, GATEWAY_PIN: '', ...env },
    });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

describe('gateway CLI', () => {
  it('account add, list, top-up', async () => {
    const add = await cliWith(
      { GATEWAY_PIN: 'Secret42' },
      'account',
      'add',
      '--username',
      'shop.one',
      '--credit',
      '2.50',
      '--restricted',
      '--reply-to',
      '447700900900,ShopOne',
      '--number',
      '447700900901',
    );
    expect(add.code).toBe(0);
    expect(add.stdout).toContain('shop.one');
    const top = await cli('account', 'top-up', '--username', 'shop.one', '--credit', '1.25');
    expect(top.stdout).toContain('3.7500');
    const list = await cli('account', 'list');
    expect(list.stdout).toMatch(/shop\.one\tGBP 3\.7500\t.*manageaccount/);
    expect(list.stdout).toContain('ShopOne');
    expect(list.stdout).not.toContain('Secret42');
  });

  it('refuses bad input with a message and a non-zero exit code', async () => {
    const dup = await cliWith({ GATEWAY_PIN: 'Secret4242' }, 'account', 'add', '--username', 'shop.one');
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toMatch(/taken/);
    const badCredit = await cliWith(
      { GATEWAY_PIN: 'Secret4242' },
      'account',
      'add',
      '--username',
      'other',
      '--credit',
      'lots',
    );
    expect(badCredit.code).not.toBe(0);
    expect(badCredit.stderr).toMatch(/--credit/);
    // Issue 17: the PIN never as a flag (visible in ps), and not too short.
    const flag = await cliWith(
      { GATEWAY_PIN: 'Secret4242' },
      'account',
      'add',
      '--username',
      'flag',
      '--pin',
      'Secret4242',
    );
    expect(flag.code).not.toBe(0);
    expect(flag.stderr).toMatch(/--pin is not accepted.*ps/);
    const short = await cliWith({ GATEWAY_PIN: 'abc123' }, 'account', 'add', '--username', 'short');
    expect(short.code).not.toBe(0);
    expect(short.stderr).toMatch(/8 to 20 letters and digits/);
    const none = await cli('account', 'add', '--username', 'nopin');
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/no PIN: set GATEWAY_PIN/);
    expect((await cli('account', 'list')).stdout).not.toMatch(/flag|short|nopin/);
    const unknown = await cli('frobnicate');
    expect(unknown.code).not.toBe(0);
  });

  it('address-book import from CSV, then SendToAddressBook reaches the group', async () => {
    const csv = join(dataDir, 'contacts.csv');
    await writeFile(
      csv,
      'name,number,groups\nAnn,+44 7700 900911,Staff;Leads\nBen,07700900912,Staff\nNobody,12,\n',
    );
    const res = await cli(
      'address-book',
      'import',
      '--username',
      'shop.one',
      '--book',
      'Main',
      '--file',
      csv,
      '--country',
      'GB',
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('2 contacts imported');
    expect(res.stdout).toMatch(/row 3: 12/);
  });

  it('serve --sandbox on an empty data dir prints the demo credentials and URLs, and serves them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-serve-'));
    const child = spawn(NODE, [CLI, 'serve', '--sandbox', '--port', '0', '--data', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no credentials printed: ${out}`)), 20_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (/PIN:\s+\S+/.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const url = /primary:\s+(http:\/\/\S+)/.exec(out)?.[1];
      const username = /Username:\s+(\S+)/.exec(out)?.[1];
      const pin = /PIN:\s+(\S+)/.exec(out)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(out).toContain('/sendsms5?wsdl');
      const res = await postForm(url!, '/webservices/http/queryaccount', {
        Username: username!,
        PIN: pin!,
        AvailableCredit: '',
      });
      expect(parseTags(res.body).Currency).toEqual(['GBP']);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the default data directory follows the platform conventions', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/x/share' }, 'linux')).toBe('/x/share/messenger-gateway');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32')).toContain(
      'messenger-gateway',
    );
    expect(defaultDataDir({}, 'darwin')).toMatch(/Library\/Application Support\/messenger-gateway$/);
  });
});
