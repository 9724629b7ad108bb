// Office mode (issue 28): desk B's Inbox list mirrors what desk A's sends do to conversations at desk A,
// against a real PostgreSQL and the reference gateway. A send from desk A to one number lists that
// conversation at desk B (its last message what was sent, "sent from" desk A, its time the send's);
// a later one updates it; a campaign of desk A (many numbers, or one with a Bcc) lists none of its numbers at desk B (as at desk A) and
// updates a conversation already listed; outbound messages change no unread count; another account's
// list at desk B gains nothing of them.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';
import { queueReplies, startTestGateway } from '../../support/gateway.ts';
import { jobFinished } from '../../support/app.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { collectAll, collectorOf, finishedAt, openDesk, waitLong } from '../../support/office-desk.ts';
import type { Desk } from '../../support/office-desk.ts';
import type { ConversationSummary, OutboxJob } from '../../../preload/api.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** The number queueReplies' first reply comes from. */
const CUSTOMER = '447700100000';
const OTHERS = ['447700100101', '447700100102'];

async function sendFrom(d: Desk, recipients: string[], text: string): Promise<OutboxJob> {
  const sent = await d.app.api.send.submit({ recipients, content: { kind: 'text', text } });
  await jobFinished(d.app, sent.job.id, 100);
  return sent.job;
}

const listOf = async (d: Desk): Promise<ConversationSummary[]> =>
  (await d.app.api.inbox.conversations({ limit: 100 })).items;

/** A conversation row as the Inbox list shows it. */
const row = (c: ConversationSummary | undefined) =>
  c === undefined
    ? null
    : {
        peer: c.peer,
        last: c.lastMessage?.text,
        direction: c.lastMessage?.direction,
        sentFrom: c.lastMessage?.sentFrom ?? null,
        unread: c.unreadCount,
        at: c.lastActivityAt,
      };

describe.skipIf(!havePostgres())("office mode: other desks' sends in the conversation list", () => {
  it("desk B's Inbox lists desk A's send to one number, not its campaigns' numbers, on the account only", async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ credit: '1000.00' });
    cleanups.push(() => gw.close());
    const other = await startTestGateway({ credit: '1000.00' });
    cleanups.push(() => other.close());
    const a = await openDesk(cleanups, gw, pg.urlWithPassword);
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    await a.app.api.office.rename({ name: 'Front desk' });
    const sharedAtB = (text: string) => finishedAt(b, text);
    const atB = async (peer: string) => row((await listOf(b)).find((c) => c.peer === peer));

    // a send from A to one number, no reply yet: B lists its conversation, as A does
    const first = await sendFrom(a, [CUSTOMER], 'Hello from A');
    await sharedAtB('Hello from A');
    expect(await atB(CUSTOMER)).toEqual({
      peer: CUSTOMER,
      last: 'Hello from A',
      direction: 'out',
      sentFrom: 'Front desk',
      unread: 0,
      at: first.createdAt,
    });
    expect(await b.app.api.inbox.unreadTotal()).toBe(0);
    // opening it shows the thread
    const conv = (await listOf(b)).find((c) => c.peer === CUSTOMER)!;
    expect(
      (await b.app.api.inbox.thread({ conversationId: conv.id })).items.map((m) => [m.text, m.sentFrom]),
    ).toEqual([['Hello from A', 'Front desk']]);

    // a reply: unread at B; desk A's next send is its last message, the unread count unchanged
    queueReplies(gw, DEMO_NUMBER, 1);
    expect(await collectAll((await collectorOf([a, b])).app, 1)).toBe(1);
    await waitLong('the reply at B', async () => (await atB(CUSTOMER))?.last === 'reply 0');
    const second = await sendFrom(a, [CUSTOMER], 'Again from A');
    await sharedAtB('Again from A');
    expect(await atB(CUSTOMER)).toEqual({
      peer: CUSTOMER,
      last: 'Again from A',
      direction: 'out',
      sentFrom: 'Front desk',
      unread: 1,
      at: second.createdAt,
    });
    // desk B's own send after it is the last message again, said as its own
    await sendFrom(b, [CUSTOMER], 'From B');
    expect((await atB(CUSTOMER))?.sentFrom).toBe(null);
    expect((await atB(CUSTOMER))?.last).toBe('From B');

    // a campaign from A: none of its new numbers listed at B (nor at A); a listed one shows it
    const campaign = await sendFrom(a, [CUSTOMER, ...OTHERS], 'Campaign from A');
    await sharedAtB('Campaign from A');
    const peersAtA = (await listOf(a)).map((c) => c.peer);
    const peersAtB = (await listOf(b)).map((c) => c.peer);
    expect(peersAtA).toEqual([CUSTOMER]);
    expect(peersAtB).toEqual([CUSTOMER]);
    expect(await atB(CUSTOMER)).toEqual({
      peer: CUSTOMER,
      last: 'Campaign from A',
      direction: 'out',
      sentFrom: 'Front desk',
      unread: 1,
      at: campaign.createdAt,
    });
    expect(await b.app.api.inbox.unreadTotal()).toBe(1);
    // a (rich) send to one number with a Bcc is a campaign too (createJob): listed at neither desk
    const copied = await a.app.api.send.submit({
      recipients: ['447700100103'],
      copies: { bcc: ['447700100104'] },
      content: {
        kind: 'vcard',
        text: '',
        fields: { vCard: 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:With;Bcc\r\nEND:VCARD' },
      },
    });
    await jobFinished(a.app, copied.job.id, 100);
    await waitLong('the send with a Bcc at B', async () =>
      (await b.app.api.outbox.jobs()).find((j) => j.content.kind === 'vcard' && j.counts.pending === 0),
    );
    expect((await listOf(a)).map((c) => c.peer)).toEqual([CUSTOMER]);
    expect((await listOf(b)).map((c) => c.peer)).toEqual([CUSTOMER]);

    // desk B signed in to another account: none of desk A's sends in its list
    await b.app.api.accounts.signIn({
      username: other.username,
      pin: other.pin,
      primaryUrl: other.url,
      rememberPin: false,
    });
    expect(await listOf(b)).toEqual([]);
  }, 180_000);
});
