// The CLI over real HTTP against recorded answers: connection from flags/environment, the PIN rule,
// recipients from flags and files, table and JSON output, and the exit codes 0/1/2/3.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeForm } from '../../../protocol/form.ts';
import { main, numbersFromFile } from '../../../main/cli.ts';
import type { CliIO } from '../../../main/cli.ts';
import { rawServer, recordedServer } from './sockets.ts';
import type { ReceivedRequest, TestServer } from './sockets.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function serve(respond: (req: ReceivedRequest) => string): Promise<TestServer> {
  const server = await recordedServer(respond);
  cleanups.push(() => server.close());
  return server;
}

interface Run {
  code: number;
  out: string;
  err: string;
  prompted: number;
}

async function cli(
  args: string[],
  env: Record<string, string> = {},
  pinAnswer?: string,
  tty = false,
): Promise<Run> {
  let out = '';
  let err = '';
  let prompted = 0;
  const io: CliIO = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s), isTTY: tty },
    promptPin: () => {
      prompted++;
      return Promise.resolve(pinAnswer);
    },
  };
  // issue 25: `inbox` keeps replies in a data folder: one of its own per run
  const data = mkdtempSync(join(tmpdir(), 'messenger-cli-data-'));
  try {
    const code = await main(args, { MESSENGER_DATA: data, ...env }, io);
    return { code, out, err, prompted };
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

const accept = (req: ReceivedRequest): string => {
  const to = (decodeForm(req.body).get('SendTo') ?? '').split(',');
  return `MessageIdentifier=${to.map((_, i) => `M${i}`).join(',')}&Report=${to.map(() => '-3').join(',')}&Text=${to.map(() => 'Accepted').join(',')}`;
};

describe('messenger CLI', () => {
  it('send: connection from the environment, table output, exit 0', async () => {
    const server = await serve(accept);
    const r = await cli(['send', '--to', '447700900123, 447700900124', '--text', 'Hello'], {
      MESSENGER_URL: server.url,
      MESSENGER_USERNAME: 'acme.1',
      MESSENGER_PIN: 'Secret9',
    });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/447700900123\s+accepted\s+-3\s+M0/);
    expect(r.out).toMatch(/2 recipients in 1 request: 2 accepted/);
    expect(r.prompted).toBe(0);
    const fields = decodeForm(server.requests[0]!.body);
    expect(fields.get('PIN')).toBe('Secret9');
    expect(fields.get('Username')).toBe('acme.1');
  });

  it('asks for the PIN when MESSENGER_PIN is not set, and refuses a --pin flag', async () => {
    const server = await serve(() => 'Currency=GBP&AvailableCredit=5.0000');
    const asked = await cli(['credit', '--url', server.url, '--username', 'acme.1'], {}, 'Typed1');
    expect(asked.prompted).toBe(1);
    expect(asked.code).toBe(0);
    expect(asked.out.trim()).toBe('5.0000 GBP');
    expect(decodeForm(server.requests[0]!.body).get('PIN')).toBe('Typed1');

    const flag = await cli(['credit', '--url', server.url, '--username', 'acme.1', '--pin', 'x']);
    expect(flag.code).toBe(2);
    expect(flag.err).toMatch(/never taken as a flag/);
    const none = await cli(['credit', '--url', server.url, '--username', 'acme.1']);
    expect(none.code).toBe(2);
    expect(server.count()).toBe(1);
  });

  it('recipients from a CSV file, JSON output, exit 1 when one fails', async () => {
    const server = await serve(() => 'MessageIdentifier=A,B&Report=-3,5&Text=ok,Barred');
    const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
    const file = join(dir, 'customers.csv');
    writeFileSync(file, 'name,mobile\nAlice,07700 900123\nBob,+44 7700 900124\nAlice again,447700900123\n');
    const r = await cli(['send', '--to-file', file, '--text', 'Hi', '--json', '--country', 'GB'], {
      MESSENGER_URL: server.url,
      MESSENGER_USERNAME: 'acme.1',
      MESSENGER_PIN: 'p',
    });
    expect(r.code).toBe(1);
    const json = JSON.parse(r.out) as {
      outcome: string;
      duplicatesRemoved: number;
      recipients: Array<{ number: string; status: string }>;
    };
    expect(json.outcome).toBe('failed');
    expect(json.duplicatesRemoved).toBe(1);
    expect(json.recipients.map((x) => [x.number, x.status])).toEqual([
      ['447700900123', 'accepted'],
      ['447700900124', 'rejected'],
    ]);
  });

  it('validation errors: exit 2, every problem listed, nothing sent', async () => {
    const server = await serve(accept);
    const r = await cli(['send', '--to', '447700900123,not-a-number', '--text', 'x', '--delay', '99999'], {
      MESSENGER_URL: server.url,
      MESSENGER_USERNAME: 'acme.1',
      MESSENGER_PIN: 'p',
    });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not-a-number/);
    expect(r.err).toMatch(/SendTimeDelay/);
    expect(r.err).toMatch(/nothing was sent/);
    expect(server.count()).toBe(0);
  });

  it('usage errors: exit 2', async () => {
    expect((await cli([])).code).toBe(2);
    expect((await cli(['send', '--text', 'x'])).err).toMatch(/MESSENGER_URL/);
    expect(
      (
        await cli(['frobnicate', '--url', 'http://127.0.0.1:9'], {
          MESSENGER_USERNAME: 'a',
          MESSENGER_PIN: 'b',
        })
      ).code,
    ).toBe(2);
    expect((await cli(['send', '--bogus'])).code).toBe(2);
    expect((await cli(['help'])).code).toBe(0);
  });

  it('a stalled gateway: exit 3, says unknown, sent once', async () => {
    const primary = await rawServer('stall');
    cleanups.push(() => primary.close());
    const r = await cli(
      ['send', '--to', '447700900123', '--text', 'x', '--timeout', '0.3', '--url', primary.url],
      {
        MESSENGER_USERNAME: 'acme.1',
        MESSENGER_PIN: 'p',
      },
    );
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/UNKNOWN/);
    expect(primary.count()).toBe(1);
  });

  it('a progress bar on a terminal for sends of more than 350 recipients', async () => {
    const server = await serve(accept);
    const to = Array.from({ length: 400 }, (_, i) => String(447400000000 + i)).join(',');
    const env = { MESSENGER_URL: server.url, MESSENGER_USERNAME: 'acme.1', MESSENGER_PIN: 'p' };
    const r = await cli(['send', '--to', to, '--text', 'x'], env, undefined, true);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/\[#+\.*\] 350\/400 recipients, 1 requests/);
    expect(r.err).toMatch(/\[#{30}\] 400\/400 recipients, 2 requests/);
    expect(server.count()).toBe(2);
    const quiet = await cli(['send', '--to', to, '--text', 'x', '--json'], env, undefined, true);
    expect(quiet.err).toBe('');
  });

  it('a whole-request error is printed once', async () => {
    const server = await serve(() => 'MessageIdentifier=-1&Report=2&Text=Invalid%20Login');
    const to = Array.from({ length: 20 }, (_, i) => `4477009001${String(i).padStart(2, '0')}`).join(',');
    const r = await cli(['send', '--to', to, '--text', 'x'], {
      MESSENGER_URL: server.url,
      MESSENGER_USERNAME: 'acme.1',
      MESSENGER_PIN: 'wrong',
    });
    expect(r.code).toBe(1);
    expect(r.out.match(/Invalid Login/gi)).toHaveLength(1);
    expect(r.out).toMatch(/\+19 more/);
    expect(r.err).toMatch(/error in request 1: .*Invalid Login/i);
  });

  it('runs with plain node and no build step (bin launcher included)', async () => {
    const run = promisify(execFile);
    const help = await run(process.execPath, ['main/cli.ts', 'help'], { cwd: process.cwd() });
    expect(help.stdout).toMatch(/Usage: messenger/);
    const noArgs = await run(process.execPath, ['bin/messenger.js'], { cwd: process.cwd() }).then(
      () => 0,
      (e: { code: number }) => e.code,
    );
    expect(noArgs).toBe(2);
  });
});

describe('numbersFromFile', () => {
  it('reads one number per line, or the number column of a CSV', () => {
    expect(numbersFromFile('447700900123\n447700900124\n\n')).toEqual(['447700900123', '447700900124']);
    expect(numbersFromFile('Phone,Name\n447700900123,Al\n"+44 7700 900124",Bo')).toEqual([
      '447700900123',
      '+44 7700 900124',
    ]);
    expect(numbersFromFile('Al,447700900123\nBo,447700900124')).toEqual(['447700900123', '447700900124']);
    expect(numbersFromFile('a;b\nx;447700900123', 'b')).toEqual(['447700900123']);
  });
});

describe('messenger CLI against the reference gateway', () => {
  it('send-mms, credit (form and SOAP), messages, reply-to, inbox, version, child create/transfer/delete', async () => {
    const { startTestGateway } = await import('../../support/gateway.ts');
    const gw = await startTestGateway({ credit: '20.00' });
    cleanups.push(() => gw.close());
    const env = { MESSENGER_URL: gw.url, MESSENGER_USERNAME: gw.username, MESSENGER_PIN: gw.pin };

    const mms = await cli(
      [
        'send-mms',
        '--type',
        'ringtone',
        '--phone-make',
        'Nokia',
        '--ringtone',
        'Beep:d=4,o=5,b=120:c,e,g',
        '--to',
        '447700900123',
      ],
      env,
    );
    expect(mms.code).toBe(0);
    expect(mms.out).toMatch(/447700900123\s+accepted/);

    const credit = await cli(['credit'], env);
    expect(credit.code).toBe(0);
    expect(credit.out).toMatch(/^\d+\.\d{4} GBP$/m);
    const soapCredit = await cli(['credit', '--soap', '--json'], env);
    expect(JSON.parse(soapCredit.out)).toMatchObject({ outcome: 'ok', value: { Currency: 'GBP' } });
    expect((await cli(['messages'], env)).out).toMatch(/^\d+$/m);
    expect((await cli(['reply-to'], env)).out).toMatch(/DemoShop/);
    expect((await cli(['inbox'], env)).code).toBe(0);
    const version = await cli(['version', '--url', gw.url], {});
    expect(version.code).toBe(0);
    expect(version.out).toMatch(/^\d+\.\d+\.\d+ /);

    const created = await cli(
      [
        'child',
        'create',
        '--type',
        'TRANSFER',
        '--email',
        'kid@example.com',
        '--country-code',
        '44',
        '--mobile',
        '447700900555',
        '--json',
      ],
      env,
    );
    expect(created.code).toBe(0);
    const child = (JSON.parse(created.out) as { value: { username: string } }).value.username;
    expect((await cli(['child', 'transfer', child, '--messages', '3'], env)).code).toBe(0);
    expect((await cli(['child', 'transfer', child], env)).code).toBe(2);
    expect((await cli(['child', 'delete', child], env)).code).toBe(0);
    const again = await cli(['child', 'delete', child], env);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/rejected by the gateway/);
  });
});

describe('messenger address-book list (issue 16)', () => {
  it('lists a book, a group and every book from the reference gateway; an unknown book exits 1', async () => {
    const { startTestGateway } = await import('../../support/gateway.ts');
    const { importAddressBook } = await import('../../../gateway/address-books.ts');
    const gw = await startTestGateway({ credit: '5.00', sandbox: false });
    cleanups.push(() => gw.close());
    importAddressBook(gw.ctx.db, gw.account, 'Staff', [
      { number: '447700900301', name: 'Ann Lee', groups: ['Sales'] },
      { number: '447700900302', groups: [] },
    ]);
    const env = { MESSENGER_URL: gw.url, MESSENGER_USERNAME: gw.username, MESSENGER_PIN: gw.pin };
    const group = await cli(['address-book', 'list', 'Staff::Sales'], env);
    expect(group).toMatchObject({ code: 0, out: '447700900301\tAnn Lee\tStaff::Sales\n' });
    const book = await cli(['address-book', 'list', 'Staff'], env);
    expect(book.out.trim().split('\n')).toEqual([
      '447700900301\tAnn Lee\tStaff::Sales',
      '447700900302\t\tStaff',
    ]);
    const all = await cli(['address-book', 'list', '--json'], env);
    const parsed = JSON.parse(all.out) as { outcome: string; value: Array<{ Group?: string }> };
    expect(parsed.outcome).toBe('ok');
    // every book of the account (the demo account has its own): Staff's entries with their reference
    expect(parsed.value.filter((e) => e.Group?.startsWith('Staff'))).toEqual([
      {
        MobileNumber: '447700900301',
        GivenName: 'Ann',
        FamilyName: 'Lee',
        Group: 'Staff::Sales',
        Reference: 'Staff::Sales',
      },
      { MobileNumber: '447700900302', Group: 'Staff', Reference: 'Staff' },
    ]);
    const unknown = await cli(['address-book', 'list', 'Nope'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/Unknown address book Nope/);
    expect((await cli(['address-book', 'show'], env)).code).toBe(2);
  });
});
