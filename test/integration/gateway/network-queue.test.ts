// The network queue: a send request commits its messages, the credit and one network_queue entry
// together and answers; the simulated SMSC gets the messages from the queue off the request path.
// The queue is durable (a gateway stopped before draining sends them on its next start) and drained
// exactly once when a primary and a secondary instance share the data directory.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTags, postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';
import type { NetworkSimulator } from '../../../gateway/network/simulator.ts';
import type { GatewayContext } from '../../../gateway/context.ts';

const PATH = '/webservices/http/sendsms';
const opened: TestGateway[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const g of opened.splice(0)) await g.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

function count(ctx: GatewayContext, sql: string, ...args: string[]): number {
  return (ctx.db.prepare(sql).get(...args) as { n: number }).n;
}

/** Sends without letting the instance drain its queue (as if it died right after answering). */
function holdQueue(ctx: GatewayContext): NetworkSimulator {
  const network = ctx.network as NetworkSimulator;
  network.drainSoon = () => {};
  return network;
}

async function send(url: string, gw: TestGateway, to: string[]): Promise<string[]> {
  const res = await postForm(url, PATH, {
    Username: gw.username,
    PIN: gw.pin,
    SendTo: to.join(','),
    Message: 'queued',
    ResponseFormat: '3',
  });
  const tags = parseTags(res.body);
  expect(tags.Report).toEqual(to.map(() => '-3'));
  return tags.MessageIdentifier!;
}

describe('network queue', () => {
  it('is durable: messages accepted by a gateway stopped before draining go out on its next start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-queue-'));
    dirs.push(dataDir);
    const first = await startTestGateway({ dataDir, demo: true, receiptDelayMs: 60_000 });
    holdQueue(first.ctx).drainQueue = () => 0; // nor its periodic sweep
    const ids = await send(first.url, first, ['447700900701', '447700900702']);
    expect(count(first.ctx, 'SELECT count(*) AS n FROM network_queue')).toBe(1);
    expect(count(first.ctx, 'SELECT count(*) AS n FROM outbound_pdus')).toBe(0);
    await first.close();

    const second = await startTestGateway({ dataDir, demo: false, receiptDelayMs: 60_000 });
    opened.push(second);
    for (const id of ids) {
      expect(
        count(second.ctx, 'SELECT count(*) AS n FROM outbound_pdus WHERE message_identifier = ?', id),
      ).toBe(1);
      expect(
        count(second.ctx, 'SELECT count(*) AS n FROM delivery_receipts WHERE message_identifier = ?', id),
      ).toBe(1);
    }
    expect(count(second.ctx, 'SELECT count(*) AS n FROM network_queue')).toBe(0);
  });

  it('two instances on one data directory hand every message to the network exactly once', async () => {
    const gw = await startTestGateway({ secondary: true, receiptDelayMs: 60_000 });
    opened.push(gw);
    const a = holdQueue(gw.ctx);
    const b = holdQueue(gw.secondaryCtx!);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const url = i % 2 === 0 ? gw.url : gw.secondaryUrl!;
      ids.push(...(await send(url, gw, [`4477009008${i}1`, `4477009008${i}2`, `4477009008${i}3`])));
    }
    expect(count(gw.ctx, 'SELECT count(*) AS n FROM network_queue')).toBe(6);
    // Both drain at once (each claim is its own BEGIN IMMEDIATE transaction on its own connection).
    const handed = (await Promise.all([a, b, a, b].map(async (n) => n.drainQueue()))).reduce((x, y) => x + y);
    expect(handed).toBe(18);
    for (const id of ids) {
      expect(count(gw.ctx, 'SELECT count(*) AS n FROM outbound_pdus WHERE message_identifier = ?', id)).toBe(
        1,
      );
      expect(
        count(gw.ctx, 'SELECT count(*) AS n FROM delivery_receipts WHERE message_identifier = ?', id),
      ).toBe(1);
    }
    expect(count(gw.ctx, 'SELECT count(*) AS n FROM network_queue')).toBe(0);
  });

  it('a rejected recipient never reaches the network', async () => {
    const gw = await startTestGateway({ receiptDelayMs: 60_000 });
    opened.push(gw);
    const res = await postForm(gw.url, PATH, {
      Username: gw.username,
      PIN: gw.pin,
      SendTo: '447700900711,4470,447700900712',
      Message: 'mixed',
      ResponseFormat: '3',
    });
    const tags = parseTags(res.body);
    expect(tags.Report![0]).toBe('-3');
    expect(tags.Report![1]).not.toBe('-3');
    await expect.poll(() => count(gw.ctx, 'SELECT count(*) AS n FROM outbound_pdus')).toBe(2);
    expect(count(gw.ctx, 'SELECT count(*) AS n FROM outbound_pdus WHERE recipient = ?', '4470')).toBe(0);
  });
});
