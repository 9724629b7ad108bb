// Issue 16 §2 through the app's API against the reference gateway: a server address book (or
// book::group) is one recipient token sent as SendToAddressBook, never expanded into numbers; its
// reach is counted in the estimate; Cc/Bcc of a rich send go with the first request only; a book
// job is its own batch; continue and resend never send a book or a Cc again.
import { afterEach, describe, expect, it } from 'vitest';
import { sentTo, serverBook as book, storedCredit } from '../../support/gateway.ts';
import { signedInApp, type Cleanups, jobFinished, loopStopped } from '../../support/app.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import type { OutboxContent } from '../../../preload/api.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const numbers = (n: number, from = 0): string[] =>
  Array.from({ length: n }, (_, i) => String(447400000000 + from + i));

const VCARD: OutboxContent = {
  kind: 'vcard',
  text: '',
  fields: { vCard: 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Ann\r\nEND:VCARD' },
};

/** Settled: every batch answered or refused (a moment first, for sends that start late). */
const finished = (a: MessengerApp, jobId: number) => jobFinished(a, jobId, 300);

describe('server address books and Cc/Bcc sent from the app', { timeout: 60_000 }, () => {
  it('book::group is one SendToAddressBook request, its members get it once, its reach is counted', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-book-', { credit: '100.00' });
    const members = numbers(3, 5000);
    // Club has five members; its group Team three of them.
    book(gw, 'Club', [...members.map((n): [string, string[]] => [n, ['Team']]), ...numbers(2, 5100)]);
    const req = {
      recipients: ['447400000001'],
      addressBooks: ['Club::Team'],
      content: { kind: 'text', text: 'to the team' } as OutboxContent,
    };
    const estimate = await a.api.send.estimate(req);
    expect(estimate.recipients).toBe(1 + 3);
    expect(estimate.messages).toBe(4);
    expect(estimate.reached).toEqual([{ label: 'Club::Team', reach: 3 }]);
    const credit = storedCredit(gw.ctx, gw.username);
    const sent = await a.api.send.submit(req);
    expect(sent.job.recipientCount).toBe(1);
    expect(sent.job.extraReach).toBe(3);
    await finished(a, sent.job.id);
    const batches = await a.api.outbox.batches(sent.job.id);
    expect(batches).toHaveLength(2);
    // The book is a batch of its own: no numbers journaled for it, the reference kept as it is.
    const bookBatch = batches.find((b) => b.extras)!;
    expect(bookBatch.recipients).toEqual([]);
    expect(bookBatch.extras).toEqual({
      fields: { SendToAddressBook: 'Club::Team' },
      reach: 3,
      answered: 3,
      accepted: 3,
      rejected: 0,
    });
    expect(bookBatch.state).toBe('accepted');
    // One request carried the book; each member got it once; nobody else in the book did.
    const requestOf = gw.ctx.db
      .prepare(
        'SELECT DISTINCT request_id AS id FROM messages WHERE account_id = ? AND recipient IN (?, ?, ?)',
      )
      .all(gw.account.id, ...members) as Array<{ id: string }>;
    expect(requestOf).toHaveLength(1);
    const all = gw.ctx.db
      .prepare('SELECT DISTINCT request_id AS id FROM messages WHERE account_id = ?')
      .all(gw.account.id) as Array<{ id: string }>;
    expect(all).toHaveLength(2);
    const counts = sentTo(gw);
    for (const n of [...members, '447400000001']) expect(counts.get(n)).toBe(1);
    expect(counts.size).toBe(4);
    // Charged for the four, once each.
    const charged = credit - storedCredit(gw.ctx, gw.username);
    expect(charged).toBeGreaterThan(0);
    expect(charged % 4).toBe(0);
    // A resend of the whole job sends only its numbers: the book never again.
    const resent = await a.api.outbox.resend({ jobId: sent.job.id, numbers: ['447400000001'] });
    await finished(a, resent.id);
    expect((await a.api.outbox.batches(resent.id)).some((b) => b.extras)).toBe(false);
    for (const n of members) expect(sentTo(gw).get(n)).toBe(1);
    expect(sentTo(gw).get('447400000001')).toBe(2);
  });

  it('1,500 numbers + a Cc book and a Bcc number: each member gets it exactly once, charged once; continue never repeats them', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-book-cc-', { credit: '5000.00' });
    const board = numbers(3, 9000);
    book(gw, 'Board', board);
    const to = numbers(1500);
    const req = {
      recipients: to,
      copies: { ccAddressBook: 'Board', bcc: ['447400009200'] },
      content: VCARD,
    };
    const estimate = await a.api.send.estimate(req);
    expect(estimate.recipients).toBe(1500 + 3 + 1);
    expect(estimate.reached).toEqual([
      { label: 'Bcc 447400009200', reach: 1 },
      { label: 'CcAddressBook Board', reach: 3 },
    ]);
    const credit = storedCredit(gw.ctx, gw.username);
    // Sign out after the first batch: the rest stays pending, then Continue.
    const firstBatch = new Promise<void>((resolve) => a.events.on('outbox:progress', () => resolve()));
    const sent = await a.api.send.submit(req);
    await firstBatch;
    await a.api.accounts.signOut();
    const before = await loopStopped(a, sent.job.id);
    expect(before[0]!.extras?.fields).toEqual({ SendBcc: '447400009200', SendCcAddressBook: 'Board' });
    // The first request: 350 minus the Cc book's 3 and the Bcc number.
    expect(before[0]!.recipients).toHaveLength(346);
    expect(before.slice(1).every((b) => b.extras === undefined)).toBe(true);
    await a.api.accounts.signIn({
      username: gw.username,
      pin: gw.pin,
      primaryUrl: gw.url,
      rememberPin: false,
    });
    expect(before.map((b) => b.state)).toContain('pending');
    expect(before[0]!.state).toBe('accepted');
    await a.api.outbox.continue(sent.job.id);
    await finished(a, sent.job.id);
    const batches = await a.api.outbox.batches(sent.job.id);
    // 346 + 350 + 350 + 350 + 104: the Cc/Bcc in the first request only.
    expect(batches.map((b) => b.recipients.length)).toEqual([346, 350, 350, 350, 104]);
    expect(batches.every((b) => b.state === 'accepted')).toBe(true);
    expect(batches[0]!.extras).toMatchObject({ reach: 4, answered: 4, accepted: 4 });
    const counts = sentTo(gw);
    for (const n of [...to, ...board, '447400009200']) expect(counts.get(n)).toBe(1);
    expect([...counts.values()].reduce((s, n) => s + n, 0)).toBe(1504);
    const perMessage = (credit - storedCredit(gw.ctx, gw.username)) / 1504;
    expect(Number.isInteger(perMessage) && perMessage > 0).toBe(true);
    // Resending every journaled recipient: numbers only; nobody of the Cc/Bcc again.
    const resent = await a.api.outbox.resend({ jobId: sent.job.id, numbers: to.slice(0, 5) });
    await finished(a, resent.id);
    const again = sentTo(gw);
    for (const n of [...board, '447400009200']) expect(again.get(n)).toBe(1);
    await expect(a.api.outbox.continue(sent.job.id)).rejects.toMatchObject({ code: 'invalid-state' });
  });

  it('refuses Cc/Bcc on a text message, a book too large for one request, an unknown book, a book with an opted-out member and a merged book, before anything is journaled', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-book-refuse-');
    book(gw, 'Huge', numbers(351, 7000));
    await expect(
      a.api.send.submit({
        recipients: ['447400000001'],
        copies: { cc: ['447400000002'] },
        content: { kind: 'text', text: 'hi' },
      }),
    ).rejects.toMatchObject({ code: 'invalid-recipients', message: expect.stringMatching(/SendCc/) });
    await expect(
      a.api.send.estimate({ recipients: [], addressBooks: ['Huge'], content: { kind: 'text', text: 'hi' } }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/351 recipients/) });
    await expect(
      a.api.send.submit({ recipients: [], addressBooks: ['Nope'], content: { kind: 'text', text: 'hi' } }),
    ).rejects.toMatchObject({ code: 'invalid-recipients', message: expect.stringMatching(/Nope/) });
    await expect(
      a.api.send.submit({
        recipients: ['447400000001'],
        content: { ...VCARD, fields: { ...VCARD.fields, SendCcAddressBook: 'Huge' } } as OutboxContent,
      }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/set by the send/) });
    // A book is sent whole: one opted-out member refuses it (nothing is sent to an opted-out number).
    book(gw, 'Club', numbers(3, 7500));
    await a.api.optouts.add(['447400007501']);
    await expect(
      a.api.send.submit({ recipients: [], addressBooks: ['Club'], content: { kind: 'text', text: 'hi' } }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/Club: 1 of its members is on the opt-out list/),
    });
    // A mail merge names each recipient; a book's members are not listed by the app.
    await expect(
      a.api.send.estimate({
        recipients: ['447400000001'],
        addressBooks: ['Huge'],
        content: { kind: 'text', text: 'Hi {name}' },
      }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/mail merge/) });
    expect(sentTo(gw).size).toBe(0);
    expect(await a.api.outbox.jobs()).toEqual([]);
  });
  it('a book gone from the gateway by the time its batch is sent: that batch is refused with the reason, the rest sent', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-book-gone-', { credit: '100.00' });
    book(gw, 'Gone', numbers(2, 6000));
    for (const content of [{ kind: 'text', text: 'hi' }, VCARD] as OutboxContent[]) {
      if (content.kind !== 'text') book(gw, 'Gone', numbers(2, 6000));
      const sent = await a.api.send.submit({ recipients: numbers(2, 6100), addressBooks: ['Gone'], content });
      expect(sent.job.extraReach).toBe(2);
      // Its batch is the last: the book goes before it is requested.
      gw.ctx.db
        .prepare('DELETE FROM address_books WHERE account_id = ? AND name = ?')
        .run(gw.account.id, 'Gone');
      await finished(a, sent.job.id);
      const [numbersBatch, bookBatch] = await a.api.outbox.batches(sent.job.id);
      expect(numbersBatch!.state).toBe('accepted');
      expect(bookBatch).toMatchObject({
        state: 'rejected',
        reason: expect.stringMatching(/Unknown address book Gone/),
        // Read again before its request (review 2/3): refused there, never requested.
        extras: { fields: { SendToAddressBook: 'Gone' }, answered: null },
      });
    }
    expect(sentTo(gw).get('447400006000')).toBeUndefined();
  });
});
