// Mail merge (issue 12) against a real reference gateway: "{first name|there}" filled per recipient
// from the address book, the fallback for a number without a contact; recipients with the same final
// text share one request; the estimate counts the longest text; a resend keeps each recipient's text;
// an opted-out contact gets nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { signedInApp, jobFinished as finished } from '../../support/app.ts';
import type { TestGateway } from '../../support/gateway.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** What the gateway stored per recipient: [recipient, text]. */
function gatewayTexts(gw: TestGateway): string[][] {
  const rows = gw.ctx.db.prepare('SELECT recipient, content FROM messages ORDER BY id').all() as Array<{
    recipient: string;
    content: string;
  }>;
  return rows.map((r) => [r.recipient, (JSON.parse(r.content) as { text?: string }).text ?? '']);
}

describe('mail merge against the reference gateway', () => {
  it('refuses a merge whose longest text is over the longest message, before anything is sent', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-merge-long-');
    const long = await a.api.contacts.add({ name: 'Alexandra Longname', number: '447700900911' });
    // The template alone fits (255 parts of 153 GSM characters = 39,015); "Alexandra Longname" does not.
    const text = `${'a'.repeat(39_005)}{name}`;
    const request = {
      recipients: ['447700900912'],
      contactIds: [long.id],
      content: { kind: 'text' as const, text },
    };
    await expect(a.api.send.submit(request)).rejects.toThrow(
      /merged text for Alexandra Longname needs 256 parts; at most 255/,
    );
    expect(await a.api.outbox.jobs()).toEqual([]);
    expect(gatewayTexts(gw)).toEqual([]);
  });

  it('sends each recipient their own name, the fallback to unknown numbers, one request per text', async () => {
    const { gw, a } = await signedInApp(cleanups, 'messenger-merge-');
    const alice = await a.api.contacts.add({ name: 'Alice Archer', number: '447700900901' });
    const bob = await a.api.contacts.add({ name: 'Bob Baker', number: '447700900902' });
    const carol = await a.api.contacts.add({ name: 'Carol Cooper', number: '447700900903' });
    await a.api.optouts.add(['447700900903']);

    const request = {
      recipients: ['447700900904', '447700900905'],
      contactIds: [alice.id, bob.id, carol.id],
      content: { kind: 'text' as const, text: 'Hi {first name|there}, your table is ready' },
    };
    expect(await a.api.send.estimate(request)).toMatchObject({ recipients: 4, optedOut: 1, segments: 1 });
    // Compose's counter: the longest text among the four sent to ("there" and "Alice" tie: the first one).
    expect(await a.api.mailmerge.measure(request)).toMatchObject({
      merged: true,
      recipients: 4,
      longest: { text: 'Hi there, your table is ready', to: '447700900904', name: null },
      messages: 4,
      withoutContact: 2,
      distinctTexts: 3,
    });
    const sent = await a.api.send.submit(request);
    await finished(a, sent.job.id);
    expect(gatewayTexts(gw).sort()).toEqual([
      ['447700900901', 'Hi Alice, your table is ready'],
      ['447700900902', 'Hi Bob, your table is ready'],
      ['447700900904', 'Hi there, your table is ready'],
      ['447700900905', 'Hi there, your table is ready'],
    ]);
    // Three texts, three requests: the two numbers without a contact shared one.
    const batches = await a.api.outbox.batches(sent.job.id);
    expect(batches.map((b) => b.recipients.length).sort()).toEqual([1, 1, 2]);

    // A resend keeps each recipient's own text.
    const again = await a.api.outbox.resend({
      jobId: sent.job.id,
      numbers: ['447700900901', '447700900904'],
    });
    await finished(a, again.id);
    expect(gatewayTexts(gw).slice(4).sort()).toEqual([
      ['447700900901', 'Hi Alice, your table is ready'],
      ['447700900904', 'Hi there, your table is ready'],
    ]);
  });
});
