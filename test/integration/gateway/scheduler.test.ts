// Scheduled sending (SendTimeDelay / SendTimeAbsolute) on a scheduler that survives a restart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTags, postForm, startTestGateway, storedCredit } from '../../support/gateway.ts';

const SEND = '/webservices/http/sendsms';
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gateway-sched-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function isoSeconds(t: number): string {
  return new Date(t).toISOString().slice(0, 19); // YYYY-MM-DDTHH:MM:SS, UTC, no offset
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface JobState {
  status: string;
  dispatched_at: string | null;
  claimed_by: string | null;
}

describe('scheduler', () => {
  it('SendTimeDelay queues (-2) and charges at once; the message waits', async () => {
    const gw = await startTestGateway();
    try {
      const before = storedCredit(gw.ctx, gw.username);
      const res = await postForm(gw.url, SEND, {
        Username: gw.username,
        PIN: gw.pin,
        SendTo: '447700900401',
        Message: 'in an hour',
        SendTimeDelay: '60',
        ResponseFormat: '1',
      });
      const tags = parseTags(res.body);
      expect(tags.Report).toEqual(['-2']);
      expect(storedCredit(gw.ctx, gw.username)).toBe(before - 400);
      const row = gw.ctx.db
        .prepare(
          `SELECT m.status, m.scheduled_at, j.due_at FROM messages m JOIN scheduled_jobs j ON j.message_id = m.id
           WHERE m.message_identifier = ?`,
        )
        .get(tags.MessageIdentifier![0]!) as { status: string; scheduled_at: string; due_at: number };
      expect(row.status).toBe('scheduled');
      expect(row.due_at - Date.now()).toBeGreaterThan(59 * 60_000);
      expect(row.due_at - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    } finally {
      await gw.close();
    }
  });

  it('SendTimeAbsolute in the past sends at once (-3)', async () => {
    const gw = await startTestGateway();
    try {
      const res = await postForm(gw.url, SEND, {
        Username: gw.username,
        PIN: gw.pin,
        SendTo: '447700900402',
        Message: 'late',
        SendTimeAbsolute: isoSeconds(Date.now() - 3_600_000),
        ResponseFormat: '1',
      });
      expect(parseTags(res.body).Report).toEqual(['-3']);
    } finally {
      await gw.close();
    }
  });

  it('a message pending at shutdown is sent after the restart, exactly once', async () => {
    const first = await startTestGateway({ dataDir, demo: true });
    const { username, pin } = first;
    const due = Math.ceil((Date.now() + 2500) / 1000) * 1000;
    const res = await postForm(first.url, SEND, {
      Username: username,
      PIN: pin,
      SendTo: '447700900403',
      Message: 'after the restart',
      SendTimeAbsolute: isoSeconds(due),
      ResponseFormat: '1',
    });
    const tags = parseTags(res.body);
    expect(tags.Report).toEqual(['-2']);
    const id = tags.MessageIdentifier![0]!;
    await first.close();

    await sleep(due - Date.now() + 200); // the gateway is down while the message falls due

    const state = (gwCtx: { db: DatabaseSync }): JobState =>
      gwCtx.db
        .prepare(
          `SELECT m.status, m.dispatched_at, j.claimed_by FROM messages m JOIN scheduled_jobs j ON j.message_id = m.id
           WHERE m.message_identifier = ?`,
        )
        .get(id) as unknown as JobState;

    const second = await startTestGateway({ dataDir, demo: false });
    let after: JobState;
    try {
      const deadline = Date.now() + 30_000; // generous: the machine may be busy (issue 25)
      do {
        after = state(second.ctx);
        if (after.status !== 'scheduled') break;
        await sleep(50);
      } while (Date.now() < deadline);
      expect(after.status).not.toBe('scheduled');
      expect(after.claimed_by).toBe('primary');
      expect(after.dispatched_at).not.toBeNull();
    } finally {
      await second.close();
    }

    // A further restart does not send it again.
    const third = await startTestGateway({ dataDir, demo: false });
    try {
      await sleep(300);
      expect(state(third.ctx).dispatched_at).toBe(after.dispatched_at);
      // The simulated SMSC got the message's one PDU once, and at most one receipt is scheduled for it.
      const count = (table: string): number =>
        (
          third.ctx.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE message_identifier = ?`).get(id) as {
            n: number;
          }
        ).n;
      expect(count('outbound_pdus')).toBe(1);
      expect(count('delivery_receipts')).toBeLessThanOrEqual(1);
    } finally {
      await third.close();
    }
  });
});
