// Issue 16, section 4 ("no reply is ever lost"): 30,000 replies waiting at the reference gateway
// (which answers CollectMessages in pages of COLLECT_PAGE_MAX) are all collected, each once, by the
// CLI (`npm run cli -- inbox --json`, as a separate process) and by the app's poller, whose inbox then
// holds exactly 30,000 messages. The old client refused the 5 MB answer after the gateway had marked
// every message collected: all were lost.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { signedInApp } from '../../support/app.ts';
import type { MessengerEvents } from '../../../preload/api.ts';
import { DEMO_NUMBER } from '../../../gateway/demo.ts';
import { queueReplies, startTestGateway } from '../../support/gateway.ts';

const BURST = 30_000;
const run = promisify(execFile);
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const expected = Array.from({ length: BURST }, (_, i) => `reply ${i}`);

describe(`${BURST.toLocaleString('en-GB')} replies queued at the gateway`, () => {
  it('the CLI collects every one, each once, over several calls', { timeout: 180_000 }, async () => {
    const gw = await startTestGateway();
    cleanups.push(() => gw.close());
    const acct = gw.addAccount({ number: '447700900990' });
    queueReplies(gw, '447700900990', BURST);
    const data = mkdtempSync(join(tmpdir(), 'messenger-burst-cli-'));
    cleanups.push(async () => rmSync(data, { recursive: true, force: true }));
    const inbox = () =>
      run(process.execPath, ['main/cli.ts', 'inbox', '--json'], {
        env: {
          ...process.env,
          MESSENGER_URL: gw.url,
          MESSENGER_USERNAME: acct.username,
          MESSENGER_PIN: acct.pin,
          MESSENGER_DATA: data, // issue 25: the CLI's replies are kept there before printed
        },
        maxBuffer: 64 * 1024 * 1024,
      });
    const first = JSON.parse((await inbox()).stdout) as {
      outcome: string;
      value: { Report: number; MessageList: { item: Array<{ Message: { TextMessage: string } }> } };
      calls: number;
    };
    expect(first.outcome).toBe('ok');
    const texts = first.value.MessageList.item.map((m) => m.Message.TextMessage);
    expect(texts).toHaveLength(BURST);
    expect(texts).toEqual(expected); // each once, oldest first
    expect(first.calls).toBeGreaterThan(1);
    const again = JSON.parse((await inbox()).stdout) as { value: { MessageList: { item: unknown[] } } };
    expect(again.value.MessageList.item).toEqual([]);
  });

  it(
    'the app polls until the gateway is empty and its inbox holds exactly that many',
    { timeout: 180_000 },
    async () => {
      const { gw, a } = await signedInApp(cleanups, 'messenger-burst-', {});
      const events: Array<MessengerEvents['inbox:received']> = [];
      a.events.on('inbox:received', (e) => events.push(e));
      queueReplies(gw, DEMO_NUMBER, BURST);

      expect(await a.api.inbox.pollNow()).toEqual({ received: BURST });
      const texts = events.flatMap((e) => e.messages.map((m) => m.text));
      expect(texts).toEqual(expected);
      expect(await a.api.inbox.unreadTotal()).toBe(BURST);
      const left = gw.ctx.db
        .prepare('SELECT COUNT(*) AS n FROM inbound_messages WHERE collected = 0')
        .get() as { n: number };
      expect(left.n).toBe(0);
      expect(await a.api.inbox.pollNow()).toEqual({ received: 0 });
      expect(await a.api.inbox.unreadTotal()).toBe(BURST);
    },
  );
});
