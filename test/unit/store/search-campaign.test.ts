// Issue 27 item 6, the product decision on search (docs/ARCHITECTURE.md "What search, exports and
// salvage read of a campaign"): a campaign's messages to numbers that never replied are not message
// hits (they are lean rows, with no search entry; the send is found as a send hit, search-sends.test.ts);
// once the number writes, its thread shows the message and search finds it there. A campaign journaled before (its rows in a campaign-only
// conversation) is found as it was: nothing found before is lost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';
import type { OpenedAppStore } from '../../../main/store/app-store.ts';

const opened: Array<{ store: OpenedAppStore; dir: string }> = [];
afterEach(() => {
  for (const { store, dir } of opened.splice(0)) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('search and a campaign', () => {
  it('finds a campaign in History, in search once a number writes; an older campaign as before', () => {
    const dir = mkdtempSync(join(tmpdir(), 'search-campaign-'));
    const store = openAppStore(join(dir, 'messenger.db'));
    opened.push({ store, dir });
    const account = store.accounts.save({ username: 'demo', primaryUrl: 'https://gw.example.com' }).id;
    // a campaign journaled before migration 055: its rows in campaign-only conversations
    const old = store.app.transaction(() => {
      const job = store.app.db
        .prepare(
          `INSERT INTO outbox_jobs (created_at, kind, text, content, account_id)
           VALUES (1000, 'text', 'Autumn fair', '{"kind":"text","text":"Autumn fair"}', ?) RETURNING id`,
        )
        .get(account) as { id: number };
      for (const peer of ['447700900011', '447700900012']) {
        const conv = store.conversations.ensure(account, peer, 1000, true);
        store.app.db
          .prepare(
            `INSERT INTO messages (conversation_id, direction, kind, peer, text, created_at, status, job_id, read)
             VALUES (?, 'out', 'text', ?, 'Autumn fair', 1000, 'accepted', ?, 1)`,
          )
          .run(conv, peer, job.id);
      }
      return job.id;
    });
    const to = ['447700900021', '447700900022'];
    const job = store.outbox.createJob(to, { kind: 'text', text: 'Spring fair' }, { accountId: account });
    const found = (q: string) =>
      store.search.search(account, q).messages.map((h) => [h.message.jobId, h.message.peer]);
    expect(found('fair')).toEqual([[old, '447700900012']]);
    expect(store.outbox.recipients(job.id).map((r) => r.to)).toEqual(to);
    // the older campaign's hit opens its conversation's thread (campaign-only: not in the list)
    const hit = store.search.search(account, 'autumn').messages[0]!.message;
    expect(
      store.conversations.thread(account, { conversationId: hit.conversationId }).items.map((m) => m.text),
    ).toEqual(['Autumn fair']);
    expect(store.conversations.list(account).items).toEqual([]);
    store.conversations.storeInbound(account, {
      from: to[1]!,
      to: '447700999000',
      text: 'When?',
      timestamp: '261127090000',
    });
    expect(found('spring')).toEqual([[job.id, to[1]]]);
  });
});
