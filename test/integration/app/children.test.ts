// Child accounts through the app facade against the real reference gateway: the permission probe,
// TRANSFER and SHARED children created (PIN returned once, never listed), transfers both ways by
// amount and by messages with the credits moving as the gateway's store says, delete, and an
// account without the restricted-service permission refused with a clear reason.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp } from '../../../main/services/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import { REPORT } from '../../../protocol/reports.ts';
import { startTestGateway, storedCredit } from '../../support/gateway.ts';
import { startFrontGateway, type FrontControl } from '../../support/front-gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function setup(
  credentials?: (gw: TestGateway) => { username: string; pin: string },
  front?: (gw: TestGateway) => Promise<string>,
): Promise<{ gw: TestGateway; app: MessengerApp; requests: () => Promise<number> }> {
  const gw = await startTestGateway({ credit: '10.00' });
  cleanups.push(() => gw.close());
  const url = front ? await front(gw) : gw.url;
  const dir = await mkdtemp(join(tmpdir(), 'messenger-children-'));
  const app = await createMessengerApp({
    dataDir: dir,
    env: {},
    log: () => {},
    policy: { systemPath: join(dir, 'no-policy.json') },
  });
  cleanups.push(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });
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

/** A front gateway (../../support/front-gateway.ts) closed after the test. */
async function frontGateway(gw: TestGateway, control: FrontControl): Promise<string> {
  const front = await startFrontGateway(gw.url, control);
  cleanups.push(() => front.close());
  return front.url;
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

  it('asks the permission once per sign-in; without it the account is refused with a clear reason', async () => {
    const { app, requests } = await setup((gw) => gw.addAccount({ credit: '5.00', restricted: false }));
    const before = await requests();
    const p = await app.api.children.permitted();
    expect(p.permitted).toBe(false);
    expect(p.definite).toBe(true);
    expect(p.reason).toMatch(
      /may not manage child accounts: Gateway error 7: Account management needs the restricted-service permission/,
    );
    expect(await app.api.children.permitted()).toEqual(p);
    await expect(
      app.api.children.create({
        type: 'SHARED',
        email: 'a@example.com',
        telephoneCountryCode: '44',
        mobileNumber: '447700900557',
      }),
    ).rejects.toMatchObject({ code: 'not-permitted', message: p.reason });
    await expect(app.api.children.delete('someone.abc123')).rejects.toMatchObject({ code: 'not-permitted' });
    // One probe request for three calls: the refusal is not asked again, nor retried.
    expect((await requests()) - before).toBe(1);
  });

  it('only the "no operation" syntax error means permitted; another answer is not known and asked again', async () => {
    const control: FrontControl = { answer: REPORT.serverError, probes: 0 };
    const { app } = await setup(undefined, (gw) => frontGateway(gw, control));
    const first = await app.api.children.permitted();
    expect(first).toEqual({
      permitted: false,
      definite: false,
      reason: expect.stringMatching(
        /^account management could not be checked: the gateway answered Gateway error 98: Temporarily unavailable/,
      ),
    });
    await expect(app.api.children.list()).resolves.toEqual([]);
    await expect(app.api.children.delete('someone.abc123')).rejects.toMatchObject({
      code: 'permission-unknown',
      message: first.reason,
    });
    // Not kept: each call asks again (the answer was not "not permitted").
    expect(control.probes).toBe(2);
    await app.api.children.permitted();
    expect(control.probes).toBe(3);
    // A success code is not the probe's "permitted" answer either.
    control.answer = REPORT.success;
    expect(await app.api.children.permitted()).toMatchObject({ permitted: false, definite: false });
    // The reference gateway's own answer (its syntax error: no operation named) is, and is kept.
    control.answer = null;
    expect(await app.api.children.permitted()).toEqual({ permitted: true, reason: null, definite: true });
    const probes = control.probes;
    expect(await app.api.children.permitted()).toMatchObject({ permitted: true });
    expect(control.probes).toBe(probes);
  });

  it('"not permitted" and "invalid login" (7, 2, -1) are definite refusals, kept for the session', async () => {
    for (const code of [REPORT.notPermitted, REPORT.invalidLogin, REPORT.invalidLoginQuery]) {
      const control: FrontControl = { answer: code, probes: 0 };
      const { app } = await setup(undefined, (gw) => frontGateway(gw, control));
      const p = await app.api.children.permitted();
      expect(p, code).toMatchObject({ permitted: false, definite: true });
      expect(p.reason).toMatch(/may not manage child accounts/);
      const both = await Promise.all([app.api.children.permitted(), app.api.children.permitted()]);
      expect(both).toEqual([p, p]);
      expect(control.probes, code).toBe(1);
    }
  });

  it('calls at the same time share one probe', async () => {
    const control: FrontControl = { answer: null, probes: 0 };
    const { app } = await setup(undefined, (gw) => frontGateway(gw, control));
    const answers = await Promise.all([1, 2, 3].map(() => app.api.children.permitted()));
    expect(answers.every((a) => a.permitted && a.definite)).toBe(true);
    expect(control.probes).toBe(1);
  });
});
