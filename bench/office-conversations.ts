// `npm run bench -- office-conversations` (issue 28): what keeping the Inbox list in step with other desks'
// sends costs the desk that stores them (main/office/sends-conversations.ts). Desk B stores desk A's
// campaign of 100,000 recipients as the feed brings it (pages of 5,000, each a transaction), a fifth of
// its numbers already with a conversation here: the whole store, and the share of it spent on the
// conversations (the same pages' newPeers + mirrorConversations timed apart, same run, as baseline the
// recipients' own store). Then 1,000 sends to one number each (each lists its conversation). No
// PostgreSQL: the feed's pages are handed over as share-sends.ts hands them. BENCH_QUICK: 20,000.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openAppStore } from '../main/store/app-store.ts';
import { SendsLocal } from '../main/office/sends-local.ts';
import type { SharedRecipient } from '../main/office/sends-local.ts';
import { mirrorConversations, newPeers } from '../main/office/sends-conversations.ts';

const RECIPIENTS = process.env.BENCH_QUICK ? 20_000 : 100_000;
const PAGE = 5000;
const ONES = 1000;

const numbers = (n: number, from = 0): string[] =>
  Array.from({ length: n }, (_, i) => `4479${String(from + i).padStart(8, '0')}`);

const recipient = (sendUid: string, peer: string, position: number): SharedRecipient => ({
  sendUid,
  peer,
  position,
  status: 'accepted',
  messageIdentifier: null,
  report: null,
  reportText: null,
  classification: null,
  receiptReport: null,
  receiptAt: null,
  sentAt: null,
  version: 1,
});

export function run(): void {
  const dir = mkdtempSync(join(tmpdir(), 'bench-office-conversations-'));
  const s = openAppStore(join(dir, 'messenger.sqlite'), { defaultCountry: 'GB' });
  try {
    const account = s.accounts.save({ username: 'office', primaryUrl: 'https://gw.example' });
    const nums = numbers(RECIPIENTS);
    s.app.transaction(() => {
      for (let i = 0; i < nums.length; i += 5) s.conversations.ensure(account.id, nums[i]!, 1);
    });
    const sends = new SendsLocal(s.app, 'desk-b');
    const send = (uid: string, at: number): number =>
      s.app.transaction(() =>
        sends.ensureSend(account.id, {
          uid,
          createdAt: at,
          content: JSON.stringify({ kind: 'text', text: 'To everyone' }),
          resendOf: null,
          desk: 'desk-a',
          deskName: 'Front desk',
        }),
      );

    // the campaign stored as its pages come, conversations and all
    const campaign = send('a:1:1000', 1000);
    let storeMs = 0;
    for (let o = 0; o < nums.length; o += PAGE) {
      const page = nums.slice(o, o + PAGE).map((p, i) => recipient('a:1:1000', p, o + i));
      const t = performance.now();
      s.app.transaction(() => sends.putRecipients(campaign, page));
      storeMs += performance.now() - t;
    }
    // the conversations' part alone, on the same pages of a second campaign (its rows stored beforehand)
    const second = send('a:2:2000', 2000);
    s.app.transaction(() => {
      const put = s.app.db.prepare(
        'INSERT INTO office_send_recipients (job_id, peer, position, status) VALUES (?, ?, ?, ?)',
      );
      nums.forEach((p, i) => put.run(second, p, i, 'accepted'));
    });
    let mirrorMs = 0;
    for (let o = 0; o < nums.length; o += PAGE) {
      const peers = nums.slice(o, o + PAGE);
      const t = performance.now();
      s.app.transaction(() => {
        newPeers(s.app, second, peers);
        mirrorConversations(s.app, second, peers);
      });
      mirrorMs += performance.now() - t;
    }
    // sends to one number each, each listing a new conversation
    const ones = numbers(ONES, 50_000_000);
    const t = performance.now();
    ones.forEach((peer, i) => {
      const uid = `a:${10 + i}:${3000 + i}`;
      const job = send(uid, 3000 + i);
      s.app.transaction(() => sends.putRecipients(job, [recipient(uid, peer, 0)]));
    });
    const onesMs = performance.now() - t;
    const listed = s.conversations.list(account.id, { limit: 1 }).items[0]?.lastMessage?.sentFrom;
    if (listed !== 'Front desk') throw new Error('the last send to one number is not listed');

    const n = RECIPIENTS.toLocaleString('en-GB');
    const recipientsMs = storeMs - mirrorMs;
    console.log(
      `another desk's campaign of ${n} stored at this desk: ${storeMs.toFixed(0)} ms; its recipients alone ` +
        `${recipientsMs.toFixed(0)} ms (baseline), the Inbox conversations ${mirrorMs.toFixed(0)} ms ` +
        `(${((storeMs / recipientsMs) * 1).toFixed(2)}× the baseline in all)`,
    );
    console.log(
      `  ${ONES.toLocaleString('en-GB')} sends to one number each stored, each listing its conversation: ` +
        `${(onesMs / ONES).toFixed(3)} ms a send`,
    );
  } finally {
    s.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
