// Review of issue 27's plan reuse: the estimate's plan serves the submit that follows it, but the
// recipients it names are the ones of the moment of Send. A group member removed (or a contact's
// number changed) between the estimate and Send is not sent to from the estimate's stale list.
import { afterEach, describe, expect, it } from 'vitest';
import { signedInApp, jobFinished as finished } from '../../support/app.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('a reused plan is never a stale recipient list', () => {
  it('a member removed from a group after the estimate is not sent to', async () => {
    const { a } = await signedInApp(cleanups, 'messenger-plan-reuse-');
    const alice = await a.api.contacts.add({ name: 'Alice', number: '447700900611' });
    const bob = await a.api.contacts.add({ name: 'Bob', number: '447700900612' });
    const team = await a.api.groups.create('Team');
    await a.api.groups.addMembers({ id: team.id, contactIds: [alice.id, bob.id] });
    const request = {
      recipients: [],
      groupIds: [team.id],
      content: { kind: 'text' as const, text: 'Hi team' },
    };
    expect(await a.api.send.estimate(request)).toMatchObject({ recipients: 2 });

    // Bob leaves the team while the confirmation is open.
    await a.api.groups.removeMembers({ id: team.id, contactIds: [bob.id] });
    const sent = await a.api.send.submit(request);
    await finished(a, sent.job.id);
    expect((await a.api.outbox.recipients(sent.job.id)).map((o) => o.to)).toEqual(['447700900611']);
    expect(sent.job.recipientCount).toBe(1);
  });

  it("a contact's number changed after the estimate is sent to at its new number", async () => {
    const { a } = await signedInApp(cleanups, 'messenger-plan-reuse-');
    const alice = await a.api.contacts.add({ name: 'Alice', number: '447700900621' });
    const request = {
      recipients: [],
      contactIds: [alice.id],
      content: { kind: 'text' as const, text: 'Hi' },
    };
    expect(await a.api.send.estimate(request)).toMatchObject({ recipients: 1 });
    await a.api.contacts.edit({ id: alice.id, changes: { number: '447700900622' } });
    const sent = await a.api.send.submit(request);
    await finished(a, sent.job.id);
    expect((await a.api.outbox.recipients(sent.job.id)).map((o) => o.to)).toEqual(['447700900622']);
  });
});
