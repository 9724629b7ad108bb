import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAppDb } from '../../../main/store/db.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { AccountsRepo } from '../../../main/store/accounts.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { tempDbFile } from './helpers.ts';

let app: AppDb;
let cleanup: () => void;
let accounts: AccountsRepo;
beforeEach(() => {
  const t = tempDbFile();
  cleanup = t.cleanup;
  app = openAppDb(t.file);
  accounts = new AccountsRepo(app);
});
afterEach(() => {
  app.close();
  cleanup();
});

describe('accounts', () => {
  it('adds or updates by primary URL and username, with one current account', () => {
    const a = accounts.save({
      username: 'demo.1',
      primaryUrl: 'https://gw.example.com/',
      secondaryUrl: 'https://gw2.example.com',
    });
    expect(a).toMatchObject({
      label: 'demo.1 @ gw.example.com',
      primaryUrl: 'https://gw.example.com',
      secondaryUrl: 'https://gw2.example.com',
      pinStored: false,
      sandbox: false,
    });
    const again = accounts.save({
      username: 'demo.1',
      primaryUrl: 'https://gw.example.com',
      label: 'Office',
    });
    expect(again.id).toBe(a.id);
    expect(again).toMatchObject({ label: 'Office', secondaryUrl: null });
    const sandbox = accounts.save({
      username: 'sandbox',
      primaryUrl: 'http://127.0.0.1:5000',
      sandbox: true,
    });
    expect(accounts.current()).toBeNull();
    accounts.setCurrent(a.id);
    accounts.setCurrent(sandbox.id);
    expect(accounts.current()?.id).toBe(sandbox.id);
    accounts.setCurrent(null);
    expect(accounts.current()).toBeNull();
    expect(() => accounts.setCurrent('nope')).toThrow(/no account/);
  });

  it('refuses bad usernames and URLs', () => {
    expect(() => accounts.save({ username: 'x'.repeat(21), primaryUrl: 'https://gw.example.com' })).toThrow(
      /1 to 20/,
    );
    expect(() => accounts.save({ username: 'a', primaryUrl: 'gw.example.com' })).toThrow(/not a URL/);
    expect(() => accounts.save({ username: 'a', primaryUrl: 'ftp://gw.example.com' })).toThrow(
      /http or https/,
    );
  });

  it('stores only the encrypted PIN bytes it is given, and forgets them', () => {
    const a = accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' });
    const encrypted = new Uint8Array([0x76, 0x31, 0x30, 0xde, 0xad, 0xbe, 0xef]);
    accounts.storeEncryptedPin(a.id, encrypted);
    expect(accounts.get(a.id)?.pinStored).toBe(true);
    expect([...(accounts.encryptedPin(a.id) ?? [])]).toEqual([...encrypted]);
    accounts.storeEncryptedPin(a.id, null);
    expect(accounts.encryptedPin(a.id)).toBeNull();
  });

  it('remembers which account a send went out on, and resends on it', () => {
    const a = accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' });
    const journal = new OutboxJournal(app);
    const job = journal.createJob(
      ['447700900001', '447700900002'],
      { kind: 'text', text: 'hi' },
      { accountId: a.id },
    );
    expect(job.accountId).toBe(a.id);
    const b = journal.claimNext()!;
    journal.recordResults(b.id, [{ report: '-3' }, { report: '15' }]);
    expect(journal.resendToRecipients(job.id, ['447700900002']).accountId).toBe(a.id);
    accounts.remove(a.id);
    expect(journal.job(job.id)?.accountId).toBeNull();
  });
});
