// Office mode (issue 28): a conversation thread at desk B shows what desk A sent to that number on the
// same account — with desk A's name, among the replies and desk B's own messages in their order, its
// state as desk A has it — against a real PostgreSQL and the reference gateway. Paged threads read the
// same as a whole one; another account's thread at desk B shows none of them.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';
import { queueReplies, startTestGateway } from '../../support/gateway.ts';
import { jobFinished } from '../../support/app.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { collectAll, collectorOf, finishedAt, openDesk, waitLong } from '../../support/office-desk.ts';
import type { Desk } from '../../support/office-desk.ts';
import type { MessageRecord, ThreadCursor } from '../../../preload/api.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** The number queueReplies' first reply comes from. */
const CUSTOMER = '447700100000';

/** A desk's thread with `peer`, oldest first, read `limit` at a time. */
async function threadOf(d: Desk, peer: string, limit = 100): Promise<MessageRecord[]> {
  const conv = await waitLong(`the conversation with ${peer}`, async () =>
    (await d.app.api.inbox.conversations()).items.find((c) => c.peer === peer),
  );
  const items: MessageRecord[] = [];
  let next: ThreadCursor | null = null;
  do {
    const p = await d.app.api.inbox.thread({
      conversationId: conv.id,
      limit,
      ...(next ? { cursor: next } : {}),
    });
    items.push(...p.items);
    next = p.next;
  } while (next !== null);
  return items.reverse();
}

const shown = (ms: readonly MessageRecord[]) => ms.map((m) => [m.direction, m.text, m.sentFrom ?? null]);

async function sendFrom(d: Desk, text: string): Promise<number> {
  const sent = await d.app.api.send.submit({ recipients: [CUSTOMER], content: { kind: 'text', text } });
  await jobFinished(d.app, sent.job.id, 100);
  return sent.job.id;
}

describe.skipIf(!havePostgres())("office mode: other desks' messages in a conversation thread", () => {
  it("desk B's thread with a number shows desk A's messages to it, named, in order with the replies", async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ credit: '1000.00' });
    cleanups.push(() => gw.close());
    const other = await startTestGateway({ credit: '1000.00' });
    cleanups.push(() => other.close());
    const a = await openDesk(cleanups, gw, pg.urlWithPassword);
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    await a.app.api.office.rename({ name: 'Front desk' });
    await b.app.api.office.rename({ name: 'Back office' });

    const first = await sendFrom(a, 'First from A');
    const sharedAtB = (text: string) => finishedAt(b, text);
    await sharedAtB('First from A');
    queueReplies(gw, DEMO_NUMBER, 1);
    expect(await collectAll((await collectorOf([a, b])).app, 1)).toBe(1);
    await waitLong('the reply at B', async () =>
      (await b.app.api.inbox.conversations()).items.some((c) => c.peer === CUSTOMER),
    );
    await sendFrom(a, 'Second from A');
    await sharedAtB('Second from A');
    await sendFrom(b, 'From B');

    const expected = [
      ['out', 'First from A', 'Front desk'],
      ['in', 'reply 0', null],
      ['out', 'Second from A', 'Front desk'],
      ['out', 'From B', null],
    ];
    const whole = await waitLong('the thread at B', async () => {
      const t = await threadOf(b, CUSTOMER);
      return JSON.stringify(shown(t)) === JSON.stringify(expected) ? t : undefined;
    });
    expect(shown(whole)).toEqual(expected);
    // read a message at a time, the pages hold the same thread (the keyset cursor crosses both kinds)
    expect(shown(await threadOf(b, CUSTOMER, 1))).toEqual(expected);
    expect(shown(await threadOf(b, CUSTOMER, 3))).toEqual(expected);
    // desk A's message at B has its state and identifier as desk A has it
    const atA = (await a.app.api.outbox.recipients(first))[0]!;
    const atB = whole[0]!;
    expect([atB.status, atB.messageIdentifier, atB.report]).toEqual([
      atA.status,
      atA.messageIdentifier,
      atA.report,
    ]);
    expect(atB.status).not.toBe('pending');
    // desk A's thread likewise: its own messages, and desk B's named
    expect(
      shown(
        await waitLong('the thread at A', async () => {
          const t = await threadOf(a, CUSTOMER);
          return t.length === 4 ? t : undefined;
        }),
      ),
    ).toEqual([
      ['out', 'First from A', null],
      ['in', 'reply 0', null],
      ['out', 'Second from A', null],
      ['out', 'From B', 'Back office'],
    ]);

    // Desk B signed in to another account: its thread with the same number shows none of desk A's.
    await b.app.api.accounts.signIn({
      username: other.username,
      pin: other.pin,
      primaryUrl: other.url,
      rememberPin: false,
    });
    const sent = await b.app.api.send.submit({
      recipients: [CUSTOMER],
      content: { kind: 'text', text: 'Other account' },
    });
    await jobFinished(b.app, sent.job.id, 100);
    expect(shown(await threadOf(b, CUSTOMER))).toEqual([['out', 'Other account', null]]);
  }, 120_000);
});
