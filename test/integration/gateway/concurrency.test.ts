// Credit is reserved atomically: many parallel requests (through both instances on one data dir)
// can never overdraw an account, and the final balance is exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { formBody, parseTags, startTestGateway, storedCredit } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

let gw: TestGateway;
const agent = new Agent({ connections: 32 });

beforeAll(async () => {
  gw = await startTestGateway({ secondary: true });
});
afterAll(async () => {
  await agent.close();
  await gw.close();
});

async function send(base: string, fields: Record<string, string>): Promise<string[]> {
  const res = await request(`${base}/webservices/http/sendsms`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: formBody(fields),
    dispatcher: agent,
  });
  expect(res.statusCode).toBe(200);
  return parseTags(await res.body.text()).Report ?? [];
}

describe('concurrent credit use', () => {
  it('60 parallel single-recipient requests on credit for 20: exactly 20 accepted, balance 0', async () => {
    const acct = gw.addAccount({ credit: '0.8000' }); // 20 × 0.04
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        send(i % 2 ? gw.url : gw.secondaryUrl!, {
          Username: acct.username,
          PIN: acct.pin,
          SendTo: `4477009006${String(i).padStart(2, '0')}`,
          Message: `parallel ${i}`,
          ResponseFormat: '1',
        }),
      ),
    );
    const reports = results.flat();
    expect(reports.filter((r) => r === '-3')).toHaveLength(20);
    expect(reports.filter((r) => r === '15')).toHaveLength(40);
    expect(storedCredit(gw.ctx, acct.username)).toBe(0);
  });

  it('parallel multi-recipient, multi-part requests: accepted parts × price = credit spent exactly', async () => {
    const acct = gw.addAccount({ credit: '1.0000' }); // 25 parts at 0.04
    const text = 'x'.repeat(200); // 2 parts each
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        send(i % 2 ? gw.url : gw.secondaryUrl!, {
          Username: acct.username,
          PIN: acct.pin,
          SendTo: [0, 1, 2].map((k) => `447700900${700 + i * 3 + k}`).join(','),
          Message: text,
          ResponseFormat: '3',
        }),
      ),
    );
    const accepted = results.flat().filter((r) => r === '-3').length;
    expect(accepted).toBe(12); // 12 messages × 2 parts × 400 = 9600 ≤ 10000; a 13th would overdraw
    expect(storedCredit(gw.ctx, acct.username)).toBe(10_000 - accepted * 2 * 400);
    expect(storedCredit(gw.ctx, acct.username)).toBeGreaterThanOrEqual(0);
  });
});
