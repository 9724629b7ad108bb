// Issue 25: `messenger inbox` pointed at the app's data folder stores what it collects under the
// app's account of the same username and gateway, so that it is in that account's Inbox. The gateway
// as the CLI is given it (--url, MESSENGER_URL) is matched the way the app keeps an account's URL
// (a trailing slash, the host's case): the same gateway is the same account.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildResponseEnvelope } from '../../../protocol/soap/envelope.ts';
import { openAppStore } from '../../../main/store/app-store.ts';
import { openCliReplies } from '../../../main/services/cli-replies.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-account-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function collectWithCli(username: string, url: string, text = 'Hello'): Promise<void> {
  const cli = await openCliReplies(dir, { username, url, defaultCountry: 'GB', log: () => {} }, () => {});
  try {
    const answer = cli.collect((page) => page);
    answer.raw(
      Buffer.from(
        buildResponseEnvelope('CollectMessages', {
          Report: 0,
          MessageList: {
            item: [
              {
                SendTo: '447700900999',
                ReplyTo: '447700900123',
                Timestamp1: '2026-11-27T09:00:00Z',
                Message: { TextMessage: text },
              },
            ],
          },
        }),
      ),
    );
    expect(answer.finish()).toBe(1);
  } finally {
    await cli.close();
  }
}

describe("the CLI's replies in the app's Inbox", () => {
  for (const url of [
    'https://gw.example.com/soap',
    'https://gw.example.com/soap/',
    'https://GW.Example.com/soap',
  ])
    it(`are the app's account's when the CLI is given ${url}`, async () => {
      const app = openAppStore(join(dir, 'messenger.sqlite'), { defaultCountry: 'GB' });
      const acme = app.accounts.save({ username: 'acme', primaryUrl: 'https://gw.example.com/soap' });
      app.close();
      await collectWithCli('acme', url);
      const again = openAppStore(join(dir, 'messenger.sqlite'), { defaultCountry: 'GB' });
      try {
        expect(again.conversations.list(acme.id).items.map((c) => c.peer)).toEqual(['447700900123']);
        expect(again.conversations.list('').items).toEqual([]);
      } finally {
        again.close();
      }
    });

  it("a STOP collected by the CLI puts the sender on the app's account's opt-out list", async () => {
    const app = openAppStore(join(dir, 'messenger.sqlite'), { defaultCountry: 'GB' });
    const acme = app.accounts.save({ username: 'acme', primaryUrl: 'https://gw.example.com/soap' });
    app.close();
    await collectWithCli('acme', 'https://gw.example.com/soap', 'Stop');
    const again = openAppStore(join(dir, 'messenger.sqlite'), { defaultCountry: 'GB' });
    try {
      expect(again.optOuts.list(acme.id).map((o) => [o.number, o.source, o.keyword])).toEqual([
        ['447700900123', 'keyword', 'STOP'],
      ]);
    } finally {
      again.close();
    }
  });
});
