// Office mode (issue 28): sends shared between desks, against a real PostgreSQL (initdb + pg_ctl) and
// a reference gateway. A send from desk A appears in desk B's History and campaign view with its
// results, receipts and desk A's name; desk B can never send any of it (not by Continue, Resend,
// crash recovery or a restart); desk A killed mid-send → desk B never sends it, desk A's restart
// completes it once; the office database away during a send → queued, caught up.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { messageCount, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { startChildDesk } from '../../support/office-child.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { jobAt as jobAtDesk, openDesk, waitFor } from '../../support/office-desk.ts';
import type { Desk } from '../../support/office-desk.ts';
import { startTcpProxy } from '../../support/tcp-proxy.ts';
import type { OutboxJob, SendAccepted } from '../../../preload/api.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Numbers of the UK's drama range (447700900000-999), which every check takes as valid. */
const numbers = (n: number, from = 0): string[] =>
  Array.from({ length: n }, (_, i) => `447700900${String(from + i).padStart(3, '0')}`);

/** Delivery receipts of the account's sends are pushed to `desk` (the gateway's one push URL). */
async function receiptsTo(gw: TestGateway, desk: Desk): Promise<void> {
  await desk.app.api.settings.update({ pushReceiver: { enabled: true, port: null } });
  gw.ctx.db
    .prepare('UPDATE accounts SET push_url = ? WHERE username = ?')
    .run(desk.app.pushReceiverUrl(), gw.username);
}

/** How many times each number reached the gateway (every message of the account). */
function sentTo(gw: TestGateway): Map<string, number> {
  const rows = gw.ctx.db.prepare('SELECT recipient FROM messages').all() as Array<{ recipient: string }>;
  const m = new Map<string, number>();
  for (const r of rows) m.set(r.recipient, (m.get(r.recipient) ?? 0) + 1);
  return m;
}

/** (30 s: these sends are small) */
const jobAt = (desk: Desk, pred: (j: OutboxJob) => boolean, what: string): Promise<OutboxJob> =>
  jobAtDesk(desk, pred, what, 30_000);

describe.skipIf(!havePostgres())('office mode: sends shared between desks', () => {
  it("desk A's send is in desk B's History and campaign view with its results, receipts and desk A's name; B never sends it", async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100, credit: '1000.00' });
    cleanups.push(() => gw.close());
    const a = await openDesk(cleanups, gw, pg.urlWithPassword);
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    expect((await a.app.api.office.rename({ name: 'Front desk' })).deskName).toBe('Front desk');
    await b.app.api.office.rename({ name: 'Back office' });
    await receiptsTo(gw, a);

    const to = numbers(3);
    const sent = await a.app.api.send.submit({
      recipients: to,
      content: { kind: 'text', text: 'Spring sale' },
    });
    // (the simulated network answers by number: delivered, failed, or no receipt)
    const done = await jobAt(
      a,
      (j) => j.id === sent.job.id && j.counts.delivered + j.counts.failed >= 2 && j.counts.sending === 0,
      'receipts at A',
    );
    expect(done.sentBy).toEqual({ desk: 'Front desk', here: true });

    const atB = await jobAt(b, (j) => j.content.text === 'Spring sale', "A's send at B");
    expect(atB.sentBy).toEqual({ desk: 'Front desk', here: false });
    expect(atB.recipientCount).toBe(3);
    const outcomes = async (d: Desk, id: number) =>
      (await d.app.api.outbox.recipients(id)).map((r) => [
        r.to,
        r.status,
        r.messageIdentifier,
        r.report,
        r.receiptReport,
      ]);
    // results and receipts at B as at A
    await waitFor(
      'the same outcomes at B',
      async () =>
        JSON.stringify(await outcomes(b, atB.id)) === JSON.stringify(await outcomes(a, sent.job.id)),
    );
    expect(
      (await b.app.api.outbox.recipients(atB.id)).filter((r) => r.receiptReport !== null).length,
    ).toBeGreaterThanOrEqual(2);
    expect((await b.app.api.outbox.job(atB.id))?.counts).toEqual(
      (await a.app.api.outbox.job(sent.job.id))?.counts,
    );
    const campaign = await b.app.api.campaigns.get(atB.id);
    expect(campaign.counts).toEqual((await a.app.api.campaigns.get(sent.job.id)).counts);
    expect(campaign.rows.map((r) => r.to)).toEqual(to);
    expect(campaign.job.sentBy).toEqual({ desk: 'Front desk', here: false });

    // Read-only at B: nothing of it can be continued, cancelled or resent here.
    const refused = { code: 'invalid-state', message: /Front desk/ };
    await expect(b.app.api.outbox.continue(atB.id)).rejects.toMatchObject(refused);
    await expect(b.app.api.outbox.cancel(atB.id)).rejects.toMatchObject(refused);
    await expect(b.app.api.outbox.resend({ jobId: atB.id, numbers: [to[0]!] })).rejects.toMatchObject(
      refused,
    );
    await expect(b.app.api.campaigns.resendFailed(atB.id)).rejects.toMatchObject(refused);
    expect(await b.app.api.outbox.batches(atB.id)).toEqual([]);
    expect(await b.app.api.outbox.unknownBatches()).toEqual([]);
    // B's journal holds no batch of it: its sending loop and crash recovery have nothing to claim.
    const db = new DatabaseSync(join(b.dir, 'messenger.sqlite'), { readOnly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM outbox_batches').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    // B's own send is labelled as its own and shared with A in turn.
    const own = await b.app.api.send.submit({
      recipients: [numbers(1, 50)[0]!],
      content: { kind: 'text', text: 'From B' },
    });
    expect((await b.app.api.outbox.job(own.job.id))?.sentBy).toEqual({ desk: 'Back office', here: true });
    await jobAt(a, (j) => j.content.text === 'From B' && j.sentBy?.desk === 'Back office', "B's send at A");
    expect([...sentTo(gw).values()].every((n) => n === 1)).toBe(true);
    expect(messageCount(gw.ctx, gw.username)).toBe(4);
    expect(await pg.query('SELECT count(*)::int AS n FROM sends')).toEqual([{ n: 2 }]);
  }, 120_000);

  it("another desk's send is refused to an account it is not of, as the desk's own are (issue 25)", async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ credit: '1000.00' });
    cleanups.push(() => gw.close());
    const other = await startTestGateway({ credit: '1000.00' });
    cleanups.push(() => other.close());
    const a = await openDesk(cleanups, gw, pg.urlWithPassword);
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    await a.app.api.send.submit({ recipients: numbers(2), content: { kind: 'text', text: 'For gw only' } });
    const atB = await jobAt(
      b,
      (j) => j.content.text === 'For gw only' && j.recipientCount === 2,
      "A's send at B",
    );
    expect(await b.app.api.outbox.recipients(atB.id)).toHaveLength(2);
    // desk B signs in to another account: the first account's sends are not its to read
    await b.app.api.accounts.signIn({
      username: other.username,
      pin: other.pin,
      primaryUrl: other.url,
      rememberPin: false,
    });
    const refused = { code: 'invalid-state', message: /another account/ };
    await expect(b.app.api.outbox.job(atB.id)).rejects.toMatchObject(refused);
    await expect(b.app.api.campaigns.get(atB.id)).rejects.toMatchObject(refused);
    await expect(b.app.api.outbox.recipients(atB.id)).rejects.toMatchObject(refused);
    await expect(b.app.api.outbox.batches(atB.id)).rejects.toMatchObject(refused);
    expect(await b.app.api.outbox.jobs()).toEqual([]);
  }, 120_000);

  it("receipts of desk A's send pushed to desk B (the account's one push URL) reach desk A, and so both Histories", async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100 });
    cleanups.push(() => gw.close());
    const a = await openDesk(cleanups, gw, pg.urlWithPassword);
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    await receiptsTo(gw, b);
    const sent = await a.app.api.send.submit({
      recipients: numbers(3, 200),
      content: { kind: 'text', text: 'Receipts elsewhere' },
    });
    // (the simulated network answers by number: delivered, failed, or no receipt)
    const done = await jobAt(
      a,
      (j) => j.id === sent.job.id && j.counts.delivered + j.counts.failed >= 2,
      'receipts at A, pushed to B',
    );
    expect(done.counts.pending + done.counts.sending).toBe(0);
    const atB = await jobAt(b, (j) => j.content.text === 'Receipts elsewhere', "A's send at B");
    await waitFor('the receipts at B too', async () => {
      const j = await b.app.api.outbox.job(atB.id);
      return JSON.stringify(j?.counts) === JSON.stringify((await a.app.api.outbox.job(sent.job.id))?.counts);
    });
  }, 120_000);

  it('desk A killed mid-send: desk B never sends any of it; desk A, started again, completes it once', async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100, credit: '1000.00' });
    cleanups.push(() => gw.close());
    // desk A reaches the gateway through a relay the test can silence: its second request hangs
    const relay = await startTcpProxy(Number(new URL(gw.url).port));
    cleanups.push(() => relay.close());
    const dir = await mkdtemp(join(tmpdir(), 'office-send-child-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const viaRelay = { url: `http://127.0.0.1:${relay.port}`, username: gw.username, pin: gw.pin };
    const a = await startChildDesk(dir, viaRelay, pg);
    cleanups.push(async () => {
      if (a.child.exitCode === null && a.child.signalCode === null) await a.kill();
    });
    await a.call('office.rename', { name: 'Front desk' });
    // (both on the same gateway address: an account is its username and address, docs/OFFICE.md)
    const b = await openDesk(cleanups, { ...gw, url: viaRelay.url }, pg.urlWithPassword);

    const to = numbers(500); // two requests (of at most 350)
    relay.cut(); // its first request will hang: desk A is killed in the middle of its send
    const sent = await a.call<SendAccepted>('send.submit', {
      recipients: to,
      content: { kind: 'text', text: 'Big send' },
    });
    // what desk A shared before it dies: the send, its first request on its way
    const atB = await jobAt(
      b,
      (j) => j.content.text === 'Big send' && j.counts.sending === 350,
      "A's send at B, its first request on its way",
    );
    expect(atB.counts.pending).toBe(150);
    expect(atB.recipientCount).toBe(500);
    await a.kill();
    relay.restore();

    // Desk B takes over collecting; it never sends any of desk A's send.
    await waitFor('B collects', async () => (await b.app.api.office.status())?.collector, 30_000);
    await b.app.api.inbox.pollNow();
    await expect(b.app.api.outbox.continue(atB.id)).rejects.toMatchObject({ code: 'invalid-state' });
    expect(await b.app.api.outbox.unknownBatches()).toEqual([]);
    const db = new DatabaseSync(join(b.dir, 'messenger.sqlite'), { readOnly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM outbox_batches').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }

    // Desk A started again: its own crash recovery (the hanging request unknown), then Continue sending.
    const again = await startChildDesk(dir, viaRelay, pg);
    cleanups.push(async () => {
      if (again.child.exitCode === null && again.child.signalCode === null) await again.kill();
    });
    const recovered = await again.call<OutboxJob>('outbox.job', sent.job.id);
    expect(recovered.counts.sending).toBe(0);
    expect(recovered.counts.pending).toBeGreaterThan(0);
    await again.call('outbox.continue', sent.job.id);
    const finished = await waitFor('A finished its send', async () => {
      const j = await again.call<OutboxJob>('outbox.job', sent.job.id);
      return j.counts.pending === 0 && j.counts.sending === 0 ? j : undefined;
    });
    // each number requested at most once (the unknown request may or may not have reached the gateway)
    const reached = sentTo(gw);
    expect([...reached.values()].every((n) => n === 1)).toBe(true);
    // (the relay passed the hanging request on once it was restored: it reached the gateway, once)
    expect(finished.counts).toMatchObject({ unknown: 350, rejected: 0 });
    expect([150, 500]).toContain(reached.size);
    // (accepted, then a receipt may have said queued, delivered or failed by now)
    const { accepted, queued, delivered, failed } = finished.counts;
    expect(accepted + queued + delivered + failed).toBe(150);
    // …and desk B shows desk A's send as desk A has it.
    await waitFor('B shows what A has', async () => {
      const [j, mine] = await Promise.all([
        b.app.api.outbox.job(atB.id),
        again.call<OutboxJob>('outbox.job', sent.job.id),
      ]);
      return JSON.stringify(j?.counts) === JSON.stringify(mine.counts);
    });
  }, 180_000);

  it('the office database away during a send: its changes are queued and written once it is back', async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100 });
    cleanups.push(() => gw.close());
    const a = await openDesk(cleanups, gw, pg.urlWithPassword);
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    await receiptsTo(gw, a);
    await waitFor('both connected', async () =>
      (await Promise.all([a, b].map((d) => d.app.api.office.status()))).every((s) => s?.connected),
    );

    await pg.stop('fast');
    await waitFor('A says the office database is away', async () =>
      a.statuses.some((s) => !s.connected && s.error !== null),
    );
    const sent = await a.app.api.send.submit({
      recipients: numbers(5, 100),
      content: { kind: 'text', text: 'While away' },
    });
    const settled = await jobAt(
      a,
      (j) => j.id === sent.job.id && j.counts.pending + j.counts.sending === 0,
      'the send done at A',
    );
    expect(settled.recipientCount).toBe(5);
    expect((await a.app.api.office.status())?.pending).toBeGreaterThan(0);

    await pg.restart();
    await waitFor('A wrote its queue', async () => (await a.app.api.office.status())?.pending === 0, 60_000);
    const atB = await jobAt(b, (j) => j.content.text === 'While away', "A's send at B");
    await waitFor('the same outcomes at B', async () => {
      const [x, y] = await Promise.all([
        b.app.api.outbox.recipients(atB.id),
        a.app.api.outbox.recipients(sent.job.id),
      ]);
      return (
        JSON.stringify(x.map((r) => [r.to, r.status, r.receiptReport])) ===
        JSON.stringify(y.map((r) => [r.to, r.status, r.receiptReport]))
      );
    });
    expect(messageCount(gw.ctx, gw.username)).toBe(5);
    expect(await pg.query('SELECT count(*)::int AS n FROM send_recipients')).toEqual([{ n: 5 }]);
  }, 180_000);
});
