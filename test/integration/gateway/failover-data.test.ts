// A primary and a secondary instance on one data directory (how failover is demonstrated): both
// serve, what is done through one is visible through the other, scheduled jobs run once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTags, postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway({ secondary: true, credit: '5.00' });
});
afterAll(async () => {
  await gw.close();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('primary and secondary on one data directory', () => {
  it('both instances serve the same accounts and credit', async () => {
    expect(gw.secondaryUrl).toBeDefined();
    expect(gw.secondaryUrl).not.toBe(gw.url);
    const q = { Username: gw.username, PIN: gw.pin, AvailableCredit: '' };
    const a = parseTags((await postForm(gw.url, '/webservices/http/queryaccount', q)).body);
    const b = parseTags((await postForm(gw.secondaryUrl!, '/webservices/http/queryaccount', q)).body);
    expect(a.AvailableCredit).toEqual(['5.0000']);
    expect(b).toEqual(a);
  });

  it('a message sent through the primary is visible (and charged) through the secondary', async () => {
    const res = await postForm(gw.url, '/webservices/http/sendsms', {
      Username: gw.username,
      PIN: gw.pin,
      SendTo: '447700900501',
      Message: 'via primary',
      ResponseFormat: '1',
    });
    const id = parseTags(res.body).MessageIdentifier![0]!;
    const seen = gw
      .secondaryCtx!.db.prepare('SELECT recipient FROM messages WHERE message_identifier = ?')
      .get(id) as { recipient: string } | undefined;
    expect(seen?.recipient).toBe('447700900501');
    const credit = parseTags(
      (
        await postForm(gw.secondaryUrl!, '/webservices/http/queryaccount', {
          Username: gw.username,
          PIN: gw.pin,
          AvailableCredit: '',
        })
      ).body,
    );
    expect(credit.AvailableCredit).toEqual(['4.9600']);
  });

  it('an account created through one instance logs in through the other', async () => {
    const other = gw.addAccount({ credit: '1.00' }); // written through the primary's connection
    const res = await postForm(gw.secondaryUrl!, '/webservices/http/queryaccount', {
      Username: other.username,
      PIN: other.pin,
      AvailableMessages: '',
    });
    expect(parseTags(res.body).AvailableMessages).toEqual(['20']);
  });

  it('a scheduled message is dispatched by exactly one instance', async () => {
    const due = Math.ceil((Date.now() + 1500) / 1000) * 1000;
    const res = await postForm(gw.secondaryUrl!, '/webservices/http/sendsms', {
      Username: gw.username,
      PIN: gw.pin,
      SendTo: '447700900502,447700900503,447700900504',
      Message: 'scheduled, two instances',
      SendTimeAbsolute: new Date(due).toISOString().slice(0, 19),
      ResponseFormat: '3',
    });
    const ids = parseTags(res.body).MessageIdentifier!;
    expect(parseTags(res.body).Report).toEqual(['-2', '-2', '-2']);
    await sleep(due - Date.now() + 800);
    // Issue 25: then waited for as a condition (a busy machine runs the scheduler late), 30 s at most.
    const scheduled = (): number =>
      (
        gw.ctx.db
          .prepare(
            `SELECT count(*) AS n FROM messages m JOIN scheduled_jobs j ON j.message_id = m.id
              WHERE m.status = 'scheduled' AND m.message_identifier IN (${ids.map(() => '?').join(',')})`,
          )
          .get(...ids) as { n: number }
      ).n;
    for (const end = Date.now() + 30_000; scheduled() > 0 && Date.now() < end;) await sleep(50);
    for (const id of ids) {
      const row = gw.ctx.db
        .prepare(
          `SELECT m.status, j.claimed_by FROM messages m JOIN scheduled_jobs j ON j.message_id = m.id
           WHERE m.message_identifier = ?`,
        )
        .get(id) as { status: string; claimed_by: string | null };
      expect(row.status).not.toBe('scheduled');
      expect(['primary', 'secondary']).toContain(row.claimed_by);
      const pdus = gw.ctx.db
        .prepare('SELECT count(*) AS n FROM outbound_pdus WHERE message_identifier = ?')
        .get(id) as { n: number };
      expect(pdus.n).toBe(1); // handed to the network once, not once per instance
    }
  });
});
