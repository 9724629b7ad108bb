// The deploy policy file: locations per platform, which file wins, a good file, every problem of a
// bad one reported as "field: rule (value)", a missing file (no policy), unreadable JSON and an
// unreadable file (safe defaults, the path and the problem kept for the renderer's banner).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkPolicy,
  clampPollInterval,
  loadDeployPolicy,
  NO_POLICY,
  readPolicyFile,
  SAFE_POLICY,
  signInRefusal,
  systemPolicyPath,
} from '../../../main/services/deploy-policy.ts';

const dir = mkdtempSync(join(tmpdir(), 'deploy-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

const GOOD = {
  gateway: {
    primaryUrl: 'https://gw1.example.com/',
    secondaryUrl: 'https://gw2.example.com',
    locked: true,
  },
  allowedUsernames: ['acme.sales', 'acme.support'],
  updates: { enabled: true, channel: 'beta', allowedDownloadHosts: ['downloads.example.com'] },
  pollIntervalSeconds: { min: 15, max: 600 },
  offerSandbox: false,
  childAccounts: true,
  soapTypesNamespace: 'http://www.csoft.co.uk/dtd/sendsms5.xsd',
  deliveryRates: { Default: '0.04', Economy: 0.025 },
  officeDatabase: 'postgres://desk@db.office.example:5432/messenger',
};

describe('deploy policy locations', () => {
  it('uses the system location of each platform', () => {
    expect(systemPolicyPath('linux')).toBe('/etc/messenger/policy.json');
    expect(systemPolicyPath('darwin')).toBe('/Library/Application Support/Messenger/policy.json');
    expect(systemPolicyPath('win32')).toBe('C:\\ProgramData\\Messenger\\policy.json');
  });

  it('on Windows does not take the system location from %ProgramData%, which any user can set', () => {
    // A user sets ProgramData for their own process and puts a policy file where the app would then
    // look (the file name below is what `${ProgramData}\\Messenger\\policy.json` gives on this OS).
    const userMade = file(`pd\\Messenger\\policy.json`, { offerSandbox: true, allowedUsernames: ['me'] });
    const programData = join(dir, 'pd');
    expect(userMade).toBe(`${programData}\\Messenger\\policy.json`);
    const env = { ProgramData: programData, PROGRAMDATA: programData };
    const p = loadDeployPolicy({ platform: 'win32', env });
    expect(p.source).not.toBe(userMade);
    expect(p.allowedUsernames).toBeNull();
    expect(p).toEqual(NO_POLICY);
  });

  it('prefers the system file to MESSENGER_POLICY, which is read only when there is none', () => {
    const system = file('system.json', { offerSandbox: false });
    const user = file('user.json', { offerSandbox: true, allowedUsernames: ['someone'] });
    const both = loadDeployPolicy({ systemPath: system, env: { MESSENGER_POLICY: user } });
    expect(both.source).toBe(system);
    expect(both.allowedUsernames).toBeNull();
    const envOnly = loadDeployPolicy({
      systemPath: join(dir, 'absent.json'),
      env: { MESSENGER_POLICY: user },
    });
    expect(envOnly.source).toBe(user);
    expect(envOnly.allowedUsernames).toEqual(['someone']);
  });

  it('has no policy when no file exists, and an error when MESSENGER_POLICY names a missing file', () => {
    expect(loadDeployPolicy({ systemPath: join(dir, 'absent.json'), env: {} })).toEqual(NO_POLICY);
    const missing = join(dir, 'typo.json');
    const p = loadDeployPolicy({ systemPath: join(dir, 'absent.json'), env: { MESSENGER_POLICY: missing } });
    expect(p.error).toEqual({
      path: missing,
      problems: ['(file): does not exist (named by MESSENGER_POLICY)'],
    });
    expect(p.offerSandbox).toBe(false);
  });
});

describe('deploy policy parsing', () => {
  it('reads a good file', () => {
    const path = file('good.json', GOOD);
    expect(readPolicyFile(path)).toEqual({
      source: path,
      error: null,
      gateway: {
        primaryUrl: 'https://gw1.example.com',
        secondaryUrl: 'https://gw2.example.com',
        locked: true,
      },
      allowedUsernames: ['acme.sales', 'acme.support'],
      updates: {
        enabled: true,
        channel: 'beta',
        allowedDownloadHosts: ['downloads.example.com'],
        publicKeys: [],
        maxDownloadBytes: 1024 ** 3,
        allowUnsigned: false,
      },
      pollIntervalSeconds: { min: 15, max: 600 },
      offerSandbox: false,
      childAccounts: true,
      soapTypesNamespace: 'http://www.csoft.co.uk/dtd/sendsms5.xsd',
      allowInsecureGateways: false,
      deliveryRates: { Default: '0.0400', Economy: '0.0250' },
      officeDatabase: 'postgres://desk@db.office.example:5432/messenger',
    });
  });

  // issue 28
  it('takes officeDatabase only as a postgres:// URL without a password, TLS checked away from this machine', () => {
    const problems = (officeDatabase: unknown): string[] =>
      readPolicyFile(file('office.json', { officeDatabase }))?.error?.problems ?? [];
    expect(problems('postgres://desk@127.0.0.1:5433/messenger')).toEqual([]);
    expect(problems('postgres://desk:secret@db.example/messenger')).toEqual([
      'officeDatabase: must not carry a password (each desk keeps its own: docs/OFFICE.md)',
    ]);
    expect(problems('https://db.example/messenger')[0]).toMatch(
      /^officeDatabase: must start with postgres:\/\//,
    );
    expect(problems('postgres://desk@db.example/messenger?sslmode=disable')[0]).toMatch(
      /over TLS with its certificate checked/,
    );
    expect(problems('postgres://db.example/messenger')[0]).toMatch(/names no user/);
    expect(problems(42)).toEqual(['officeDatabase: must be a postgres:// URL (42)']);
  });

  it('fills what a partial file leaves out with the unmanaged defaults', () => {
    const p = readPolicyFile(file('partial.json', { gateway: { primaryUrl: 'https://gw.example.com' } }));
    expect(p).toMatchObject({
      error: null,
      gateway: { primaryUrl: 'https://gw.example.com', secondaryUrl: null, locked: false },
      allowedUsernames: null,
      updates: NO_POLICY.updates,
      pollIntervalSeconds: NO_POLICY.pollIntervalSeconds,
      offerSandbox: true,
    });
  });

  it('reports every problem of a bad file as "field: rule (value)" and applies safe defaults', () => {
    const path = file('bad.json', {
      gateway: { primaryUrl: 'ftp://gw.example.com', locked: 'yes', port: 443 },
      allowedUsernames: ['ok.name', 'no spaces', ''],
      updates: { enabled: 1, channel: 'Stable!', allowedDownloadHosts: ['https://x.example.com/'] },
      pollIntervalSeconds: { min: 4000, max: 2 },
      offerSandbox: 'no',
      childAccounts: 'yes',
      soapTypesNamespace: 'not a namespace',
      deliveryRates: { Default: '0', Premier: '0.00001', Cheap: '0.01' },
      extra: true,
    });
    const p = readPolicyFile(path);
    expect(p?.error?.path).toBe(path);
    expect(p?.error?.problems.sort()).toEqual(
      [
        'extra: not a known field (expected one of gateway, allowedUsernames, updates, pollIntervalSeconds, offerSandbox, childAccounts, soapTypesNamespace, allowInsecureGateways, deliveryRates, officeDatabase)',
        'deliveryRates.Cheap: not a known field (expected one of Default, Premier, LeastCost, Economy)',
        'deliveryRates.Default: must be a price above 0 with at most four decimals, such as "0.04" ("0")',
        'deliveryRates.Premier: must be a price above 0 with at most four decimals, such as "0.04" ("0.00001")',
        'childAccounts: must be true or false ("yes")',
        'soapTypesNamespace: must be an absolute URI such as http://www.csoft.co.uk/dtd/sendsms5.xsd ("not a namespace")',
        'gateway.port: not a known field (expected one of primaryUrl, secondaryUrl, locked)',
        'gateway.primaryUrl: must be an http or https URL ("ftp://gw.example.com")',
        'gateway.locked: must be true or false ("yes")',
        'allowedUsernames[1]: must be letters, digits and dots (a gateway Username) ("no spaces")',
        'allowedUsernames[2]: must be 1 to 20 characters ("")',
        'updates.enabled: must be true or false (1)',
        'updates.channel: must be a lower-case name such as "stable" or "beta" ("Stable!")',
        'updates.allowedDownloadHosts[0]: must be a host name such as "downloads.example.com" ("https://x.example.com/")',
        'pollIntervalSeconds.min: must be a whole number from 5 to 3600 (4000)',
        'pollIntervalSeconds.max: must be a whole number from 5 to 3600 (2)',
        'offerSandbox: must be true or false ("no")',
      ].sort(),
    );
    expect({ ...p, source: null, error: null }).toEqual({ ...SAFE_POLICY });
    expect(SAFE_POLICY.updates.enabled).toBe(false);
    expect(SAFE_POLICY.offerSandbox).toBe(false);
  });

  it('reports rules between fields', () => {
    expect(checkPolicy({ gateway: { locked: true } }).problems).toEqual([
      'gateway.primaryUrl: required when gateway.locked is true (missing)',
    ]);
    expect(checkPolicy({ gateway: { secondaryUrl: 'https://b.example.com' } }).problems).toEqual([
      'gateway.primaryUrl: required with gateway.secondaryUrl (missing)',
    ]);
    expect(checkPolicy({ pollIntervalSeconds: { min: 60, max: 30 } }).problems).toEqual([
      'pollIntervalSeconds.min: must not be above pollIntervalSeconds.max (60 > 30)',
    ]);
    expect(checkPolicy({ pollIntervalSeconds: { min: 60 } }).problems).toEqual([
      'pollIntervalSeconds.max: required (missing)',
    ]);
    expect(checkPolicy({ allowedUsernames: [] }).problems).toEqual([
      'allowedUsernames: must name at least one account, or be left out to allow any ([])',
    ]);
    expect(checkPolicy([1, 2]).problems).toEqual(['(file): must be a JSON object ([1,2])']);
  });

  it('refuses a file that is not JSON, with the parser message', () => {
    const path = file('broken.json', '{ "offerSandbox": false, }');
    const p = readPolicyFile(path);
    expect(p?.error?.path).toBe(path);
    expect(p?.error?.problems).toHaveLength(1);
    expect(p?.error?.problems[0]).toMatch(/^\(file\): is not valid JSON \(.+\)$/);
    expect(p?.offerSandbox).toBe(false);
  });

  it.skipIf(process.getuid?.() === 0)('refuses a file that cannot be read', () => {
    const path = file('secret.json', GOOD);
    chmodSync(path, 0o000);
    const p = readPolicyFile(path);
    chmodSync(path, 0o600);
    expect(p?.error).toEqual({ path, problems: ['(file): cannot be read (EACCES)'] });
  });

  it('refuses a policy path that is a folder (unreadable as a file, also for root)', () => {
    expect(readPolicyFile(dir)?.error).toEqual({ path: dir, problems: ['(file): cannot be read (EISDIR)'] });
  });

  it('a missing file is no policy', () => {
    expect(readPolicyFile(join(dir, 'nothing-here.json'))).toBeNull();
  });
});

describe('deploy policy rules', () => {
  const policy = { ...readPolicyFile(file('rules.json', GOOD))! };

  it('refuses other gateways and other usernames with the reason', () => {
    expect(
      signInRefusal(policy, { username: 'acme.sales', primaryUrl: 'https://gw1.example.com/' }),
    ).toBeNull();
    expect(signInRefusal(policy, { username: 'acme.sales', primaryUrl: 'https://evil.example.com' })).toBe(
      'the deploy policy allows only the gateway https://gw1.example.com, not https://evil.example.com',
    );
    expect(
      signInRefusal(policy, {
        username: 'acme.sales',
        primaryUrl: 'https://gw1.example.com',
        secondaryUrl: 'https://other.example.com',
      }),
    ).toMatch(/allows only the secondary gateway https:\/\/gw2.example.com/);
    expect(signInRefusal(policy, { username: 'ACME.sales', primaryUrl: 'https://gw1.example.com' })).toBe(
      'the deploy policy does not allow the account "ACME.sales" on this computer (allowed: acme.sales, acme.support)',
    );
  });

  it('clamps the poll interval to the bounds', () => {
    expect(clampPollInterval(policy, 5)).toBe(15);
    expect(clampPollInterval(policy, 30)).toBe(30);
    expect(clampPollInterval(policy, 3600)).toBe(600);
  });
});
