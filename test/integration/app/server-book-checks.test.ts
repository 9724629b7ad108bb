// Issue 16 review (findings 1–5): a server book's members are read and checked before it is sent,
// through the app's API against the reference gateway. Nobody gets a send twice (a typed number a
// book reaches, overlapping books or Cc/Bcc are refused at submit; a book that has come to reach a
// number the send went to directly is refused at send time); a book that cannot
// be read is refused; a member who opted out after the send was journaled stops its batch at send
// time; a pending book-only batch is sent by Continue.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessengerApp, type MessengerApp } from '../../../main/services/app.ts';
import { sentTo, serverBook as book, startTestGateway } from '../../support/gateway.ts';
import { startFrontGateway, type FrontControl } from '../../support/front-gateway.ts';
import { signedInApp, type Cleanups, jobFinished, loopStopped } from '../../support/app.ts';
import type { OutboxContent } from '../../../preload/api.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const VCARD: OutboxContent = {
  kind: 'vcard',
  text: '',
  fields: { vCard: 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Ann\r\nEND:VCARD' },
};
const TEXT: OutboxContent = { kind: 'text', text: 'hi' };

/** Settled: every batch answered or refused (a moment first, for sends that start late). */
const finished = (a: MessengerApp, jobId: number) => jobFinished(a, jobId, 300);

/** An app signed in through a front gateway whose `intercept` the test sets. */
async function appBehindFront(prefix: string) {
  const gw = await startTestGateway({ credit: '100.00' });
  cleanups.push(() => gw.close());
  const control: FrontControl = { answer: null, probes: 0 };
  const front = await startFrontGateway(gw.url, control);
  cleanups.push(() => front.close());
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
  cleanups.push(async () => {
    await a.close();
    await rm(dir, { recursive: true, force: true });
  });
  const signIn = () =>
    a.api.accounts.signIn({ username: gw.username, pin: gw.pin, primaryUrl: front.url, rememberPin: false });
  await signIn();
  return { gw, a, control, signIn };
}

/**
 * Submits `req` and keeps its first request at the front until the app is signed out: the batches
 * after it stay pending (as after a crash or a sign-out), never requested.
 */
async function leftPending(
  env: Awaited<ReturnType<typeof appBehindFront>>,
  req: Parameters<MessengerApp['api']['send']['submit']>[0],
): Promise<number> {
  let release = (): void => {};
  const held = new Promise<'pass'>((resolve) => (release = () => resolve('pass')));
  let first = true;
  let arrived = (): void => {};
  const requested = new Promise<void>((resolve) => (arrived = resolve));
  env.control.intercept = (path) => {
    if (!path.includes('/webservices/http/send') || !first) return 'pass';
    first = false;
    arrived();
    return held;
  };
  const sent = await env.a.api.send.submit(req);
  // The first request is held at the front (a condition, not a 200 ms sleep: issue 25).
  await requested;
  await env.a.api.accounts.signOut();
  release();
  const states = (await loopStopped(env.a, sent.job.id)).map((b) => b.state);
  delete env.control.intercept;
  expect(states.slice(1).every((s) => s === 'pending')).toBe(true);
  return sent.job.id;
}

describe('server books checked before they are sent', { timeout: 60_000 }, () => {
  it('a number two recipients reach (a typed number and a book, two books, a Cc/Bcc) is refused, never sent twice', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-book-overlap-', { credit: '100.00' });
    book(gw, 'Club', [['447400005000', ['Team']], '447400005001']);
    book(gw, 'Other', ['447400005001', '447400005002']);
    // Without an overlap the book and the numbers go, each member once.
    const fine = await a.api.send.submit({
      recipients: ['447400000001'],
      addressBooks: ['Club'],
      content: TEXT,
    });
    await finished(a, fine.job.id);
    expect(Object.fromEntries(sentTo(gw))).toEqual({
      '447400005000': 1,
      '447400005001': 1,
      '447400000001': 1,
    });
    const jobs = (await a.api.outbox.jobs()).length;
    const refused = [
      // A typed number the book also reaches: refused, not left to the book (a book refused at send
      // time would take it with it).
      { recipients: ['447400005000', '447400000001'], addressBooks: ['Club'], content: TEXT },
      // A typed number a Cc book reaches.
      { recipients: ['447400005002', '447400000002'], copies: { ccAddressBook: 'Other' }, content: VCARD },
      { recipients: [], addressBooks: ['Club', 'Club::Team'], content: TEXT },
      { recipients: [], addressBooks: ['Club'], copies: { ccAddressBook: 'Other' }, content: VCARD },
      { recipients: ['447400000003'], copies: { cc: ['447400000003'] }, content: VCARD },
      { recipients: [], addressBooks: ['Club'], copies: { bcc: ['447400005001'] }, content: VCARD },
    ];
    for (const r of refused) {
      await expect(a.api.send.estimate(r)).rejects.toMatchObject({
        code: 'invalid-recipients',
        message: expect.stringMatching(/both reach 1 number .*twice/),
      });
      await expect(a.api.send.submit(r)).rejects.toMatchObject({ code: 'invalid-recipients' });
    }
    expect(await a.api.outbox.jobs()).toHaveLength(jobs);
    expect(sentTo(gw).get('447400000003')).toBeUndefined();
    expect(sentTo(gw).get('447400005002')).toBeUndefined();
    expect(sentTo(gw).get('447400005000')).toBe(1);
  });

  // While the number batch is held at the front, something changes; the book batch goes after it and
  // is read again first.
  it.each([
    {
      what: 'a member who opts out while the send is under way',
      meanwhile: (env: Awaited<ReturnType<typeof appBehindFront>>) => env.a.api.optouts.add(['447400005000']),
      reason: /Club: 1 of its members is on the opt-out list \(\+447400005000\)/,
    },
    {
      what: 'a number added to the book that the send went to directly',
      meanwhile: async (env: Awaited<ReturnType<typeof appBehindFront>>) => {
        book(env.gw, 'Club', ['447400005000', '447400005001', '447400000001']);
      },
      reason: /Club now also reaches \+447400000001, which this send went to directly/,
    },
    {
      what: 'a book grown past one request',
      meanwhile: async (env: Awaited<ReturnType<typeof appBehindFront>>) => {
        book(
          env.gw,
          'Club',
          Array.from({ length: 351 }, (_, i) => String(447400007000 + i)),
        );
      },
      reason: /would now reach 353 recipients .*at most 350/,
    },
  ])('$what stops the book batch at send time', async ({ meanwhile, reason }) => {
    const env = await appBehindFront('messenger-book-late-');
    const { gw, a, control } = env;
    book(gw, 'Club', ['447400005000', '447400005001']);
    let release = (): void => {};
    const held = new Promise<'pass'>((resolve) => (release = () => resolve('pass')));
    control.intercept = (path) => (path.includes('/webservices/http/send') ? held : 'pass');
    const sent = await a.api.send.submit({
      recipients: ['447400000001'],
      addressBooks: ['Club'],
      content: TEXT,
    });
    await meanwhile(env);
    release();
    await finished(a, sent.job.id);
    const [numbersBatch, bookBatch] = await a.api.outbox.batches(sent.job.id);
    expect(numbersBatch!.state).toBe('accepted');
    expect(bookBatch).toMatchObject({ state: 'rejected', reason: expect.stringMatching(reason) });
    expect(sentTo(gw).get('447400000001')).toBe(1);
    expect(sentTo(gw).get('447400005000')).toBeUndefined();
    expect(sentTo(gw).get('447400005001')).toBeUndefined();
  });

  it('Continue sends a pending book-only batch, and checks its members again first', async () => {
    const env = await appBehindFront('messenger-book-continue-');
    const { gw, a, signIn } = env;
    book(gw, 'Club', ['447400005000', '447400005001']);
    book(gw, 'Other', ['447400006000']);
    book(gw, 'Third', ['447400007000']);
    const jobId = await leftPending(env, {
      recipients: [],
      addressBooks: ['Other', 'Club', 'Third'],
      content: TEXT,
    });
    expect(sentTo(gw).get('447400006000')).toBe(1);
    await signIn();
    // Club's member opted out while the send waited; Third is sent.
    await a.api.optouts.add(['447400005001']);
    const result = await a.api.outbox.continue(jobId);
    expect(result.optedOut).toBe(0);
    await finished(a, jobId);
    const batches = await a.api.outbox.batches(jobId);
    expect(batches.map((b) => b.state)).toEqual(['accepted', 'rejected', 'accepted']);
    expect(batches[1]!.reason).toMatch(/opt-out list/);
    expect(Object.fromEntries(sentTo(gw))).toEqual({ '447400006000': 1, '447400007000': 1 });
    await expect(a.api.outbox.continue(jobId)).rejects.toMatchObject({ code: 'invalid-state' });
  });

  it('a book that cannot be read is never sent: refused at submit, or its batch refused at send time', async () => {
    const env = await appBehindFront('messenger-book-unread-');
    const { gw, a, control } = env;
    book(gw, 'Club', ['447400005000', '447400005001']);
    control.intercept = (_path, body) => (body.includes('QueryAddressBook') ? 'drop' : 'pass');
    const req = { recipients: ['447400000001'], addressBooks: ['Club'], content: TEXT };
    await expect(a.api.send.estimate(req)).rejects.toMatchObject({
      code: 'invalid-recipients',
      message: expect.stringMatching(/address book Club could not be read .*opt-out list/),
    });
    await expect(a.api.send.submit(req)).rejects.toMatchObject({ code: 'invalid-recipients' });
    expect(await a.api.outbox.jobs()).toEqual([]);
    // Read at submit, unreadable when its batch goes: that batch is refused, the number sent.
    let release = (): void => {};
    const held = new Promise<'pass'>((resolve) => (release = () => resolve('pass')));
    control.intercept = (path) => (path.includes('/webservices/http/send') ? held : 'pass');
    const sent = await a.api.send.submit(req);
    control.intercept = (path, body) =>
      body.includes('QueryAddressBook') ? 'drop' : path.includes('/webservices/http/send') ? held : 'pass';
    release();
    await finished(a, sent.job.id);
    const [numbersBatch, bookBatch] = await a.api.outbox.batches(sent.job.id);
    expect(numbersBatch!.state).toBe('accepted');
    expect(bookBatch).toMatchObject({
      state: 'rejected',
      reason: expect.stringMatching(/Club could not be read/),
    });
    expect(Object.fromEntries(sentTo(gw))).toEqual({ '447400000001': 1 });
  });

  it('members a gateway writes as +44… are matched against the opt-out list and the typed numbers', async () => {
    const env = await appBehindFront('messenger-book-plus-');
    const { gw, a, control } = env;
    book(gw, 'Club', ['447400005000', '447400005001']);
    control.rewrite = (_path, answer) => answer.replace(/(<MobileNumber[^>]*>)44/g, '$1+44');
    expect(
      await a.api.send.estimate({ recipients: ['447400000009'], addressBooks: ['Club'], content: TEXT }),
    ).toMatchObject({ recipients: 3 });
    // 447400005000 typed, +447400005000 in the book: the same number, refused as an overlap.
    await expect(
      a.api.send.estimate({ recipients: ['447400005000'], addressBooks: ['Club'], content: TEXT }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/To and Club.*both reach 1 number/) });
    await a.api.optouts.add(['447400005001']);
    await expect(
      a.api.send.submit({ recipients: [], addressBooks: ['Club'], content: TEXT }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/Club: 1 of its members is on the opt-out list/),
    });
    expect(sentTo(gw).size).toBe(0);
  });

  it('a send reads its book once to plan it (estimate, then submit) and once more just before its batch goes (issue 27)', async () => {
    const env = await appBehindFront('messenger-book-reads-');
    const { gw, a, control } = env;
    book(gw, 'Club', ['447400005000', '447400005001']);
    let reads = 0;
    control.intercept = (_path, body) => {
      if (body.includes('QueryAddressBook')) reads += 1;
      return 'pass';
    };
    const req = { recipients: ['447400000001'], addressBooks: ['Club'], content: TEXT };
    expect((await a.api.send.estimate(req)).recipients).toBe(3);
    const sent = await a.api.send.submit(req);
    await finished(a, sent.job.id);
    expect((await a.api.outbox.batches(sent.job.id)).map((b) => b.state)).toEqual(['accepted', 'accepted']);
    expect(Object.fromEntries(sentTo(gw))).toEqual({
      '447400000001': 1,
      '447400005000': 1,
      '447400005001': 1,
    });
    // Planned once (the estimate's plan serves the submit), checked again when its batch goes.
    expect(reads).toBe(2);
    // A submit with no estimate before it plans for itself.
    reads = 0;
    const again = await a.api.send.submit(req);
    await finished(a, again.job.id);
    expect(reads).toBe(2);
  });
});
