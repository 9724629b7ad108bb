// Issue 15's sandbox thread: the push receiver's start awaits the sandbox thread's setPushUrl
// acknowledgement (a message round trip) after listen(), so its 'receipt' and 'message' listeners
// are attached before it listens. The gateway's thread runs meanwhile, and the account's push URL
// may already name this very address (issue 17 keeps the port and path per account; a sign-out does
// not clear it, a crash neither): a receipt it pushes in that window is answered "receipt accepted"
// by the receiver, so it must reach a listener: the gateway never pushes it again. Here the
// sandbox's setPushUrl is wrapped to push a receipt to the receiver while the round trip is under
// way, as the gateway's thread can.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildRequestEnvelope, parseResponseEnvelope } from '../../../protocol/soap/envelope.ts';
import type * as SandboxModule from '../../../main/services/sandbox.ts';

vi.mock('../../../main/services/sandbox.ts', async (importOriginal) => {
  const real = await importOriginal<typeof SandboxModule>();
  return {
    ...real,
    startSandbox: async (opts: Parameters<typeof real.startSandbox>[0]) => {
      const sb = await real.startSandbox(opts);
      return {
        ...sb,
        close: () => sb.close(),
        async setPushUrl(url: string | null) {
          if (url !== null) {
            // a due receipt the gateway's thread pushes to the (already kept) address
            const res = await fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
              body: buildRequestEnvelope('SubmitDeliveryReceipt', {
                Username: sb.username,
                Timestamp1: '2026-11-22T08:00:00',
                SentTo: '447700900123',
                MessageIdentifier: 'RACE1',
                Report: 0,
              }),
            });
            pushed.push(parseResponseEnvelope('SubmitDeliveryReceipt', await res.text()).Report ?? -1);
          }
          return sb.setPushUrl(url);
        },
      };
    },
  };
});

const pushed: number[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('a sandbox sign-in', () => {
  it('records a receipt the gateway pushes while the push URL is being set (it was acknowledged)', async () => {
    const { createMessengerApp } = await import('../../../main/services/app.ts');
    const dir = await mkdtemp(join(tmpdir(), 'messenger-review-race-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const a = await createMessengerApp({ dataDir: dir, env: {}, log: () => {} });
    cleanups.push(() => a.close());
    await a.api.accounts.signIn({ sandbox: true });
    // the receiver took it (Report 0): the gateway will not push it again
    expect(pushed).toEqual([0]);
    const db = new DatabaseSync(join(dir, 'messenger.sqlite'), { readOnly: true });
    try {
      // no outbound message has that identifier yet: an acknowledged receipt is kept as early
      const row = db
        .prepare("SELECT count(*) AS n FROM early_receipts WHERE message_identifier = 'RACE1'")
        .get() as {
        n: number;
      };
      expect(row.n).toBe(1);
    } finally {
      db.close();
    }
  });
});
