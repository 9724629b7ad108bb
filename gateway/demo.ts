// The demo account that `serve --sandbox` creates on an empty data directory and that the test
// gateway starts with: some credit, a two-way number, the restricted-service permission (so the
// app's child-account tools work in the sandbox) and a small address book.
import type { DatabaseSync } from 'node:sqlite';
import type { Account } from './accounts.ts';
import { createAccount, randomAlnum } from './accounts.ts';
import { parseMoney } from './credit.ts';
import { importAddressBook } from './address-books.ts';

export interface DemoAccount {
  account: Account;
  username: string;
  pin: string;
}

export const DEMO_NUMBER = '447700900001';

export function createDemoAccount(
  db: DatabaseSync,
  opts: { username?: string; pin?: string; credit?: string } = {},
): DemoAccount {
  const username = opts.username ?? 'demo';
  const pin = opts.pin ?? randomAlnum(8);
  const credit = parseMoney(opts.credit ?? '10.00');
  if (credit === null) throw new Error(`invalid credit ${opts.credit}`);
  const account = createAccount(db, {
    username,
    pin,
    credit,
    restricted: true,
    number: DEMO_NUMBER,
    replyTo: ['DemoShop'],
  });
  importAddressBook(db, account, 'Friends', [
    { number: '447700900101', name: 'Alice', groups: ['Team'] },
    { number: '447700900102', name: 'Bob', groups: ['Team'] },
    { number: '447700900103', name: 'Carol', groups: [] },
  ]);
  return { account, username, pin };
}
