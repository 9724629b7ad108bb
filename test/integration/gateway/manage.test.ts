// manageaccount over real HTTP (spec 4.4): child accounts, transfers, SHARED credit, permissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTags, postForm, startTestGateway, storedCredit } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

const MANAGE = '/webservices/http/manageaccount';
const QUERY = '/webservices/http/queryaccount';
const SEND = '/webservices/http/sendsms';
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway({ credit: '10.00' });
});
afterAll(async () => {
  await gw.close();
});

const childFields = (type: string): Record<string, string> => ({
  CreateChildAccountType: type,
  CreateChildAccountEmail: 'child@example.com',
  CreateChildAccountTelephoneCountryCode: '44',
  CreateChildAccountMobileNumber: '447700900301',
  CreateChildAccountGivenName: 'Kim',
});

async function createChild(type: 'TRANSFER' | 'SHARED'): Promise<{ username: string; pin: string }> {
  const res = await postForm(gw.url, MANAGE, { Username: gw.username, PIN: gw.pin, ...childFields(type) });
  expect(res.status).toBe(200);
  const tags = parseTags(res.body);
  expect(tags.Report).toEqual(['0']);
  const username = tags.Username?.[0] ?? '';
  const pin = tags.PIN?.[0] ?? '';
  expect(username.length).toBeGreaterThan(0);
  expect(username.length).toBeLessThanOrEqual(20);
  expect(pin).toMatch(/^[A-Za-z0-9]{1,20}$/);
  return { username, pin };
}

async function credit(username: string, pin: string): Promise<string | undefined> {
  return parseTags(
    (await postForm(gw.url, QUERY, { Username: username, PIN: pin, AvailableCredit: '' })).body,
  ).AvailableCredit?.[0];
}

describe('manageaccount', () => {
  it('creates a TRANSFER child that can log in with the returned PIN; funds move both ways', async () => {
    const child = await createChild('TRANSFER');
    expect(await credit(child.username, child.pin)).toBe('0.0000');

    const toChild = await postForm(gw.url, MANAGE, {
      Username: gw.username,
      PIN: gw.pin,
      TransferToAccountUsername: child.username,
      TransferCurrencyAmount: '2.50',
    });
    expect(parseTags(toChild.body).Report).toEqual(['0']);
    expect(await credit(child.username, child.pin)).toBe('2.5000');
    expect(await credit(gw.username, gw.pin)).toBe('7.5000');

    // Back to the parent by message count: 10 premier messages at 0.05 = 0.50
    const back = await postForm(gw.url, MANAGE, {
      Username: child.username,
      PIN: child.pin,
      TransferToAccountUsername: gw.username,
      TransferMessagesAmount: '10',
    });
    expect(parseTags(back.body).Report).toEqual(['0']);
    expect(await credit(child.username, child.pin)).toBe('2.0000');
    expect(await credit(gw.username, gw.pin)).toBe('8.0000');

    const tooMuch = await postForm(gw.url, MANAGE, {
      Username: child.username,
      PIN: child.pin,
      TransferToAccountUsername: gw.username,
      TransferCurrencyAmount: '99.00',
    });
    expect(parseTags(tooMuch.body).Report).toEqual(['15']);
    expect(await credit(child.username, child.pin)).toBe('2.0000');
  });

  it('a SHARED child spends the parent credit', async () => {
    const child = await createChild('SHARED');
    const parentBefore = storedCredit(gw.ctx, gw.username);
    expect(await credit(child.username, child.pin)).toBe(await credit(gw.username, gw.pin));
    const res = await postForm(gw.url, SEND, {
      Username: child.username,
      PIN: child.pin,
      SendTo: '447700900302',
      Message: 'from the shared child',
      ResponseFormat: '1',
    });
    expect(parseTags(res.body).Report).toEqual(['-3']);
    expect(storedCredit(gw.ctx, gw.username)).toBe(parentBefore - 400);
    expect(storedCredit(gw.ctx, child.username)).toBe(0);
  });

  it('deletes a child (parent only); the deleted child can no longer log in', async () => {
    const child = await createChild('TRANSFER');
    const other = gw.addAccount({ credit: '1.00', restricted: true });
    const notParent = await postForm(gw.url, MANAGE, {
      Username: other.username,
      PIN: other.pin,
      DeleteChildAccountUsername: child.username,
    });
    expect(parseTags(notParent.body).Report?.[0]).not.toBe('0');
    const byChild = await postForm(gw.url, MANAGE, {
      Username: child.username,
      PIN: child.pin,
      DeleteChildAccountUsername: child.username,
    });
    expect(parseTags(byChild.body).Report?.[0]).not.toBe('0');
    const ok = await postForm(gw.url, MANAGE, {
      Username: gw.username,
      PIN: gw.pin,
      DeleteChildAccountUsername: child.username,
    });
    expect(parseTags(ok.body).Report).toEqual(['0']);
    const gone = parseTags(
      (await postForm(gw.url, QUERY, { Username: child.username, PIN: child.pin, AvailableCredit: '' })).body,
    );
    expect(gone.Report).toEqual(['2']);
  });

  it('refuses transfers between unrelated accounts', async () => {
    const stranger = gw.addAccount({ credit: '1.00' });
    const before = storedCredit(gw.ctx, gw.username);
    const res = await postForm(gw.url, MANAGE, {
      Username: gw.username,
      PIN: gw.pin,
      TransferToAccountUsername: stranger.username,
      TransferCurrencyAmount: '1.00',
    });
    expect(parseTags(res.body).Report?.[0]).not.toBe('0');
    expect(storedCredit(gw.ctx, gw.username)).toBe(before);
  });

  it('needs the restricted-service permission and valid credentials', async () => {
    const plain = gw.addAccount({ credit: '1.00' });
    const denied = await postForm(gw.url, MANAGE, {
      Username: plain.username,
      PIN: plain.pin,
      ...childFields('TRANSFER'),
    });
    expect(denied.status).toBe(200);
    expect(parseTags(denied.body).Report?.[0]).not.toBe('0');
    const badLogin = await postForm(gw.url, MANAGE, {
      Username: gw.username,
      PIN: 'wrong',
      ...childFields('TRANSFER'),
    });
    expect(parseTags(badLogin.body).Report).toEqual(['2']);
    const badType = await postForm(gw.url, MANAGE, {
      Username: gw.username,
      PIN: gw.pin,
      ...childFields('FAMILY'),
    });
    expect(parseTags(badType.body).Report?.[0]).not.toBe('0');
    const count = gw.ctx.db
      .prepare('SELECT count(*) AS n FROM accounts WHERE parent_id IS NOT NULL')
      .get() as { n: number };
    // only the children created by the tests above exist (2 alive: one TRANSFER, one SHARED)
    expect(count.n).toBe(2);
  });
});
