// Child accounts through the app facade against the real reference gateway: the permission (a
// setting or the policy, Report 7 of a real operation; never a probe),
// TRANSFER and SHARED children created (PIN returned once, never listed), transfers both ways by
// amount and by messages with the credits moving as the gateway's store says, delete, and an
// account without the restricted-service permission refused with a clear reason.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import { startTestGateway, storedCredit } from '../../support/gateway.ts';
import { NO_POLICY } from '../../../main/services/deploy-policy.ts';
import type { TestGateway } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function setup(
  credentials?: (gw: TestGateway) => { username: string; pin: string },
  front?: (gw: TestGateway) => Promise<string>,
  opts: { childAccounts?: boolean; policy?: Record<string, unknown> } = {},
): Promise<{ gw: TestGateway; app: MessengerApp; requests: () => Promise<number> }> {
  const gw = await startTestGateway({ credit: '10.00' });
  cleanups.push(() => gw.close());
  const url = front ? await front(gw) : gw.url;
  const dir = await mkdtemp(join(tmpdir(), 'messenger-children-'));
  const app = await createMessengerApp({
    dataDir: dir,
    env: {},
    log: () => {},
    policy: opts.policy
      ? { ...NO_POLICY, source: 'test', ...opts.policy }
      : { systemPath: join(dir, 'no-policy.json') },
  });
  cleanups.push(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });
  // Accounts is on when the user turns it on (issue 16): these tests mostly need it on.
  await app.api.settings.update({ childAccounts: opts.childAccounts ?? true });
  const who = credentials?.(gw) ?? { username: gw.username, pin: gw.pin };
  await app.api.accounts.signIn({
    username: who.username,
    pin: who.pin,
    primaryUrl: url,
    rememberPin: false,
  });
  // The gateway writes its request log in batches (at most 250 ms late).
  const manageRequests = async (): Promise<number> => {
    await new Promise((r) => setTimeout(r, 400));
    return (
      gw.ctx.db.prepare("SELECT count(*) AS n FROM request_log WHERE path LIKE '%manageaccount%'").get() as {
        n: number;
      }
    ).n;
  };
  return { gw, app, requests: manageRequests };
}

/** Credit in GBP as the gateway stores it (ten-thousandths). */
const gbp = (gw: TestGateway, username: string): number => storedCredit(gw.ctx, username) / 10_000;

describe('child accounts through the app', () => {
  it('creates TRANSFER and SHARED children, transfers both ways by amount and messages, deletes', async () => {
    const { gw, app } = await setup();
    expect(await app.api.children.permitted()).toEqual({ permitted: true, reason: null, definite: true });
    expect(await app.api.children.list()).toEqual([]);

    const transfer = await app.api.children.create({
      type: 'TRANSFER',
      email: 'kid@example.com',
      telephoneCountryCode: '44',
      mobileNumber: '07700 900555',
      givenName: 'Kim',
      familyName: '',
    });
    expect(transfer.pin).toMatch(/^[A-Za-z0-9]{1,20}$/);
    expect(transfer.child).toMatchObject({
      type: 'TRANSFER',
      mobileNumber: '447700900555',
      givenName: 'Kim',
      familyName: null,
    });
    const kid = transfer.child.username;
    expect(gbp(gw, kid)).toBe(0);

    const shared = await app.api.children.create({
      type: 'SHARED',
      email: 'team@example.com',
      telephoneCountryCode: '44',
      mobileNumber: '447700900556',
      companyName: 'Acme',
    });
    const listed = await app.api.children.list();
    expect(listed.map((c) => c.username).sort()).toEqual([kid, shared.child.username].sort());
    // The PIN is never kept by the app.
    expect(JSON.stringify(listed)).not.toContain(transfer.pin);

    // Parent → child by amount, then by messages (5 p a message at the Premier tariff).
    let r = await app.api.children.transfer({ username: kid, direction: 'toChild', amount: '2.50' });
    expect(r.child).toBeNull();
    expect(Number(r.parent.credit)).toBeCloseTo(7.5, 4);
    expect(gbp(gw, kid)).toBeCloseTo(2.5, 4);
    r = await app.api.children.transfer({
      username: kid,
      direction: 'toChild',
      messages: 10,
      childPin: transfer.pin,
    });
    expect(Number(r.parent.credit)).toBeCloseTo(7.0, 4);
    expect(r.child).toMatchObject({ currency: 'GBP', availableMessages: '60' });
    expect(Number(r.child?.credit)).toBeCloseTo(3.0, 4);
    expect(gbp(gw, gw.username)).toBeCloseTo(7.0, 4);

    // Child → parent: the child signs with its PIN.
    r = await app.api.children.transfer({
      username: kid,
      direction: 'toParent',
      amount: '1.00',
      childPin: transfer.pin,
    });
    expect(Number(r.parent.credit)).toBeCloseTo(8.0, 4);
    expect(Number(r.child?.credit)).toBeCloseTo(2.0, 4);
    r = await app.api.children.transfer({
      username: kid,
      direction: 'toParent',
      messages: 4,
      childPin: transfer.pin,
    });
    expect(Number(r.parent.credit)).toBeCloseTo(8.2, 4);
    expect(gbp(gw, kid)).toBeCloseTo(1.8, 4);
    expect(await app.api.children.balance({ username: kid, pin: transfer.pin })).toMatchObject({
      credit: '1.8000',
      availableMessages: '36',
    });

    // Refusals with the gateway's reason, nothing moved.
    await expect(
      app.api.children.transfer({
        username: kid,
        direction: 'toParent',
        amount: '1.00',
        childPin: 'wrongPIN1',
      }),
    ).rejects.toMatchObject({
      code: 'gateway-refused',
      message: expect.stringMatching(/Invalid login.*check the PIN/),
    });
    await expect(
      app.api.children.transfer({ username: kid, direction: 'toParent', amount: '1.00' }),
    ).rejects.toMatchObject({ code: 'bad-argument', message: expect.stringContaining(`the PIN of ${kid}`) });
    await expect(
      app.api.children.transfer({ username: kid, direction: 'toChild', amount: '100.00' }),
    ).rejects.toMatchObject({ code: 'gateway-refused', message: expect.stringContaining('Out of credit') });
    await expect(
      app.api.children.transfer({ username: shared.child.username, direction: 'toChild', amount: '1.00' }),
    ).rejects.toMatchObject({ code: 'gateway-refused', message: expect.stringContaining('SHARED') });
    await expect(
      app.api.children.transfer({ username: kid, direction: 'toChild', amount: '0' }),
    ).rejects.toMatchObject({ code: 'bad-argument' });
    await expect(
      app.api.children.transfer({ username: kid, direction: 'toChild', amount: '1', messages: 2 }),
    ).rejects.toMatchObject({ code: 'bad-argument' });
    expect(gbp(gw, gw.username)).toBeCloseTo(8.2, 4);

    // Delete: the TRANSFER child's credit returns to the parent, and it leaves the list.
    await app.api.children.delete(kid);
    expect(gbp(gw, gw.username)).toBeCloseTo(10.0, 4);
    expect((await app.api.credit.get())?.credit).toBe('10.0000');
    expect((await app.api.children.list()).map((c) => c.username)).toEqual([shared.child.username]);
    await expect(app.api.children.delete(kid)).rejects.toMatchObject({
      code: 'gateway-refused',
      message: expect.stringContaining(`is not a child account of ${gw.username}`),
    });
  });

  it('checks the field limits of protocol/ before anything is sent', async () => {
    const { app } = await setup();
    await expect(
      app.api.children.create({
        type: 'TRANSFER',
        email: 'not-an-email',
        telephoneCountryCode: '44',
        mobileNumber: '447700900555',
      }),
    ).rejects.toMatchObject({
      code: 'invalid-request',
      message: expect.stringContaining('CreateChildAccountEmail'),
    });
    expect(await app.api.children.list()).toEqual([]);
  });

  it('off until the user turns it on; no manageaccount request is made to learn it', async () => {
    const { app, requests } = await setup(undefined, undefined, { childAccounts: false });
    const before = await requests();
    const off = await app.api.children.permitted();
    expect(off).toMatchObject({ permitted: false, definite: true });
    expect(off.reason).toMatch(/turn them on in the Account settings/);
    await expect(app.api.children.delete('someone.abc123')).rejects.toMatchObject({ code: 'not-permitted' });
    await app.api.settings.update({ childAccounts: true });
    expect(await app.api.children.permitted()).toEqual({ permitted: true, reason: null, definite: true });
    expect((await requests()) - before).toBe(0);
  });

  it('the deploy policy turns it on', async () => {
    const { app } = await setup(undefined, undefined, {
      childAccounts: false,
      policy: { childAccounts: true },
    });
    expect(await app.api.children.permitted()).toEqual({ permitted: true, reason: null, definite: true });
  });

  it('Report 7 of a real create means not permitted for the session; nothing is repeated', async () => {
    const { app, requests } = await setup((gw) => gw.addAccount({ credit: '5.00', restricted: false }));
    const before = await requests();
    expect(await app.api.children.permitted()).toMatchObject({ permitted: true });
    await expect(
      app.api.children.create({
        type: 'SHARED',
        email: 'a@example.com',
        telephoneCountryCode: '44',
        mobileNumber: '447700900557',
      }),
    ).rejects.toMatchObject({
      code: 'not-permitted',
      message: expect.stringMatching(
        /may not manage child accounts: Gateway error 7: Account management needs the restricted-service permission/,
      ),
    });
    const p = await app.api.children.permitted();
    expect(p).toMatchObject({ permitted: false, definite: true });
    expect(p.reason).toMatch(/may not manage child accounts: Gateway error 7/);
    await expect(app.api.children.delete('someone.abc123')).rejects.toMatchObject({
      code: 'not-permitted',
      message: p.reason,
    });
    // the one create request only: the refusal is kept, never asked or repeated
    expect((await requests()) - before).toBe(1);
  });
});
