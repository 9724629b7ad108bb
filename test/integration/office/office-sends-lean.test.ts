// Issue 27 item 6 in office mode, against a real PostgreSQL and the reference gateway: a campaign of
// desk A keeps the recipients with no listed conversation in the journal's lean table (app migration
// 055), and the number with one as a `messages` row. Desk B sees it exactly as before: its counts,
// recipients (in A's order) and delivery receipts (pushed to B, applied at A on the lean rows, shared
// back). A reply from a lean number lists its conversation at A, which moves the row into `messages`
// (055's triggers): B still counts it once, with its state; its thread at both desks shows the send.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';
import { queueReplies, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import { jobFinished } from '../../support/app.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { jobAt, openDesk, waitLong } from '../../support/office-desk.ts';
import type { Desk } from '../../support/office-desk.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** queueReplies(gw, …, 1, i) brings a reply from 447700100000 + i. */
const TO = ['447700100000', '447700100001', '447700100002', '447700100003'];
const LISTED = TO[3]!;
const REPLIER = TO[1]!;

/** Delivery receipts of the account's sends are pushed to `desk` (the gateway's one push URL). */
async function receiptsTo(gw: TestGateway, desk: Desk): Promise<void> {
  await desk.app.api.settings.update({ pushReceiver: { enabled: true, port: null } });
  gw.ctx.db
    .prepare('UPDATE accounts SET push_url = ? WHERE username = ?')
    .run(desk.app.pushReceiverUrl(), gw.username);
}

/** Where desk `d` keeps the recipients of its job `jobId`: [lean numbers, `messages` numbers]. */
function tables(d: Desk, jobId: number): [string[], string[]] {
  const db = new DatabaseSync(join(d.dir, 'messenger.sqlite'), { readOnly: true });
  try {
    const peers = (sql: string) => (db.prepare(sql).all(jobId) as Array<{ peer: string }>).map((r) => r.peer);
    return [
      // (rows, and the numbers a batch not ended holds in its value: app migration 059)
      peers(
        `SELECT peer FROM (SELECT peer, job_id FROM outbox_recipients
           UNION ALL SELECT peer, job_id FROM outbox_lean_pending) WHERE job_id = ? ORDER BY peer`,
      ),
      peers("SELECT peer FROM messages WHERE job_id = ? AND direction = 'out' ORDER BY peer"),
    ];
  } finally {
    db.close();
  }
}

const outcomes = async (d: Desk, id: number) =>
  (await d.app.api.outbox.recipients(id)).map((r) => [
    r.to,
    r.status,
    r.messageIdentifier,
    r.report,
    r.receiptReport,
  ]);

describe.skipIf(!havePostgres())('office mode: a campaign’s lean recipients shared', () => {
  it('desk B sees its counts, recipients and receipts; a reply moving a lean row at A is no new recipient', async () => {
    const pg = await startTestPostgres(cleanups);
    const gw = await startTestGateway({ receiptDelayMs: 100, credit: '1000.00' });
    cleanups.push(() => gw.close());
    const a = await openDesk(cleanups, gw, pg.urlWithPassword);
    const b = await openDesk(cleanups, gw, pg.urlWithPassword);
    await a.app.api.office.rename({ name: 'Front desk' });
    // receipts go to B, which passes them on to A through the office database
    await receiptsTo(gw, b);

    // A's conversation with LISTED is listed (a message to it alone), the others have none
    const alone = await a.app.api.send.submit({
      recipients: [LISTED],
      content: { kind: 'text', text: 'Hi' },
    });
    await jobFinished(a.app, alone.job.id, 100);
    const sent = await a.app.api.send.submit({
      recipients: TO,
      content: { kind: 'text', text: 'Spring sale' },
    });
    expect(tables(a, sent.job.id)).toEqual([TO.slice(0, 3), [LISTED]]);
    const done = await jobAt(
      a,
      (j) =>
        // every receipt the simulated network gives (…0000 failed, …0001 never one, the others
        // delivered): the counts compared below are final, not a moment between two receipts
        j.id === sent.job.id &&
        j.counts.sending === 0 &&
        j.counts.pending === 0 &&
        j.counts.delivered === 2 &&
        j.counts.failed === 1,
      'every receipt at A (pushed to B, passed on)',
    );
    const atB = await jobAt(b, (j) => j.content.text === 'Spring sale', "A's campaign at B");
    expect(atB.sentBy).toEqual({ desk: 'Front desk', here: false });
    await waitLong(
      'the same outcomes at B as at A',
      async () =>
        JSON.stringify(await outcomes(b, atB.id)) === JSON.stringify(await outcomes(a, sent.job.id)),
    );
    expect((await outcomes(b, atB.id)).map((r) => r[0])).toEqual(TO);
    expect((await b.app.api.outbox.job(atB.id))?.counts).toEqual(
      (await a.app.api.outbox.job(sent.job.id))?.counts,
    );
    expect((await b.app.api.outbox.job(atB.id))?.recipientCount).toBe(4);
    expect((await b.app.api.campaigns.get(atB.id)).counts).toEqual(done.counts);

    // REPLIER answers (whichever desk collects it, both store it): at A its row moves into messages
    queueReplies(gw, DEMO_NUMBER, 1, 1);
    await waitLong('the reply at A', async () => (await a.app.api.inbox.unreadTotal()) === 1);
    await waitLong('the reply at B', async () => (await b.app.api.inbox.unreadTotal()) === 1);
    expect(tables(a, sent.job.id)).toEqual([
      [TO[0]!, TO[2]!],
      [REPLIER, LISTED],
    ]);
    // the move is shared (a newer version of the same recipient), then nothing is left to write
    await waitLong('A has written everything', async () => (await a.app.api.office.status())?.pending === 0);
    await waitLong(
      'the same outcomes at B after the move',
      async () =>
        JSON.stringify(await outcomes(b, atB.id)) === JSON.stringify(await outcomes(a, sent.job.id)),
    );
    expect((await b.app.api.outbox.job(atB.id))?.recipientCount).toBe(4);
    expect((await b.app.api.outbox.job(atB.id))?.counts).toEqual(
      (await a.app.api.outbox.job(sent.job.id))?.counts,
    );
    expect(
      await pg.query(
        "SELECT count(*)::int AS n FROM send_recipients r JOIN sends s ON s.id = r.send_id WHERE s.uid LIKE '%:' || $1 || ':%'",
        [String(sent.job.id)],
      ),
    ).toEqual([{ n: 4 }]);
    // its thread at A holds the campaign's message (moved) and the reply; at B, A's message named
    const thread = async (d: Desk) => {
      const c = (await d.app.api.inbox.conversations({ limit: 100 })).items.find((x) => x.peer === REPLIER);
      if (!c) return null;
      return (await d.app.api.inbox.thread({ conversationId: c.id })).items
        .reverse()
        .map((m) => [m.direction, m.text, m.sentFrom ?? null]);
    };
    expect(await thread(a)).toEqual([
      ['out', 'Spring sale', null],
      ['in', 'reply 1', null],
    ]);
    expect(await thread(b)).toEqual([
      ['out', 'Spring sale', 'Front desk'],
      ['in', 'reply 1', null],
    ]);
  }, 180_000);
});
