// Issue 16 review (findings 1–5): a server book's members are read and checked before it is sent,
// through the app's API against the reference gateway. Nobody gets a send twice (a typed number a
// book reaches goes through the book; overlapping books or Cc/Bcc are refused); a book that cannot
// be read is refused; a member who opted out after the send was journaled stops its batch at send
// time; a pending book-only batch is sent by Continue.
import { afterEach, describe, expect, it } from 'vitest';
import { importAddressBook } from '../../../gateway/address-books.ts';
import type { MessengerApp } from '../../../main/services/app.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { signedInApp, type Cleanups } from '../../support/app.ts';
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

function sentTo(gw: TestGateway): Map<string, number> {
  const rows = gw.ctx.db
    .prepare('SELECT recipient, count(*) AS n FROM messages WHERE account_id = ? GROUP BY recipient')
    .all(gw.account.id) as Array<{ recipient: string; n: number }>;
  return new Map(rows.map((r) => [r.recipient, r.n]));
}

function book(gw: TestGateway, name: string, members: Array<string | [string, string[]]>): void {
  importAddressBook(
    gw.ctx.db,
    gw.account,
    name,
    members.map((m) => (typeof m === 'string' ? { number: m, groups: [] } : { number: m[0], groups: m[1] })),
  );
}

async function finished(a: MessengerApp, jobId: number): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < 200; i++) {
    const batches = await a.api.outbox.batches(jobId);
    if (batches.every((b) => b.state !== 'pending' && b.state !== 'sending')) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${jobId} did not finish`);
}

describe('server books checked before they are sent', { timeout: 60_000 }, () => {
  it('a typed number a book reaches is sent once, through the book; overlapping books and Cc/Bcc are refused', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-book-overlap-', { credit: '100.00' });
    book(gw, 'Club', [['447400005000', ['Team']], '447400005001']);
    book(gw, 'Other', ['447400005001', '447400005002']);
    const req = { recipients: ['447400005000', '447400000001'], addressBooks: ['Club'], content: TEXT };
    const estimate = await a.api.send.estimate(req);
    expect(estimate.recipients).toBe(3);
    expect(estimate.inBooks).toBe(1);
    expect(estimate.duplicates).toBe(1);
    const sent = await a.api.send.submit(req);
    expect(sent.inBooks).toBe(1);
    expect(sent.job.recipientCount).toBe(1);
    await finished(a, sent.job.id);
    expect(Object.fromEntries(sentTo(gw))).toEqual({
      '447400005000': 1,
      '447400005001': 1,
      '447400000001': 1,
    });
    // A number typed in To that a Cc book reaches: through the book too.
    const cc = await a.api.send.submit({
      recipients: ['447400005002', '447400000002'],
      copies: { ccAddressBook: 'Other' },
      content: VCARD,
    });
    expect(cc.inBooks).toBe(1);
    await finished(a, cc.job.id);
    expect(sentTo(gw).get('447400005002')).toBe(1);
    const jobs = (await a.api.outbox.jobs()).length;
    const refused = [
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
  });
});
