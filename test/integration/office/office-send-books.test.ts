// Office mode (issue 28): the parts of a send without recipient rows — a server address book, the Cc/Bcc
// of its first request (issue 16) — shared as batch-level records, against a real PostgreSQL and the
// reference gateway. A send to a server book only, and a send with numbers, a Cc book and a Bcc number,
// from desk A appear in desk B's History and campaign view with the same counts, reach, book batches and
// outcome as at desk A; read-only at B; B's journal holds no batch of them.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { sentTo, serverBook, startTestGateway } from '../../support/gateway.ts';
import { jobFinished } from '../../support/app.ts';
import { havePostgres, startTestPostgres } from '../../support/office-db.ts';
import type { Cleanups } from '../../support/office-db.ts';
import { jobAt, openDesk, waitLong } from '../../support/office-desk.ts';
import type { Desk } from '../../support/office-desk.ts';
import { sendOutcome } from '../../../renderer/send-outcome.ts';
import type { OutboxBatch, OutboxContent } from '../../../preload/api.ts';

const cleanups: Cleanups = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const numbers = (n: number, from = 0): string[] =>
  Array.from({ length: n }, (_, i) => `447700900${String(from + i).padStart(3, '0')}`);

const VCARD: OutboxContent = {
  kind: 'vcard',
  text: '',
  fields: { vCard: 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Ann\r\nEND:VCARD' },
};

/** A send's book / Cc/Bcc batches as History shows them (without the desk's local ids). */
const books = (bs: readonly OutboxBatch[]) =>
  bs
    .filter((b) => b.extras)
    .map((b) => ({
      seq: b.seq,
      state: b.state,
      reason: b.reason,
      unknownCause: b.unknownCause,
      createdAt: b.createdAt,
      finishedAt: b.finishedAt,
      extras: b.extras,
    }));

/** What History and the campaign view show of a send at a desk (its counts, reach, books, headline). */
async function shown(d: Desk, id: number) {
  const job = (await d.app.api.outbox.job(id))!;
  const batches = (await d.app.api.outbox.batches(id)).filter((b) => b.extras);
  const campaign = await d.app.api.campaigns.get(id);
  return {
    recipientCount: job.recipientCount,
    counts: job.counts,
    extraReach: job.extraReach,
    unknownCauses: job.unknownCauses,
    books: books(batches),
    headline: sendOutcome({
      counts: job.counts,
      books: batches,
      content: job.content,
      createdAt: job.createdAt,
    }).headline,
    campaign: { counts: campaign.counts, rows: campaign.rows.map((r) => [r.to, r.status]) },
  };
}

describe.skipIf(!havePostgres())(
  'office mode: server books and Cc/Bcc of a send shared between desks',
  () => {
    it('a send to a server book only, and numbers + a Cc book + a Bcc, show at desk B as at desk A', async () => {
      const pg = await startTestPostgres(cleanups);
      const gw = await startTestGateway({ credit: '1000.00' });
      cleanups.push(() => gw.close());
      const a = await openDesk(cleanups, gw, pg.urlWithPassword);
      const b = await openDesk(cleanups, gw, pg.urlWithPassword);
      await a.app.api.office.rename({ name: 'Front desk' });
      serverBook(gw, 'Club', numbers(5, 100));
      serverBook(gw, 'Board', numbers(3, 200));

      // 1. A server book only: no recipient rows at all.
      const club = await a.app.api.send.submit({
        recipients: [],
        addressBooks: ['Club'],
        content: { kind: 'text', text: 'Club news' },
      });
      expect(club.job.recipientCount).toBe(0);
      expect(club.job.extraReach).toBe(5);
      await jobFinished(a.app, club.job.id, 200);
      const atA = await shown(a, club.job.id);
      expect(atA.books).toHaveLength(1);
      expect(atA.books[0]!.state).toBe('accepted');
      expect(atA.books[0]!.extras).toMatchObject({
        fields: { SendToAddressBook: 'Club' },
        reach: 5,
        accepted: 5,
      });
      const clubAtB = await jobAt(b, (j) => j.content.text === 'Club news', "A's book send at B");
      expect(clubAtB.sentBy).toEqual({ desk: 'Front desk', here: false });
      await waitLong('the book send at B as at A', async () => {
        const atB = await shown(b, clubAtB.id);
        return JSON.stringify(atB) === JSON.stringify(atA);
      });
      expect(await shown(b, clubAtB.id)).toEqual(atA);
      expect(atA.headline).toMatch(/5/);

      // 2. Numbers + a Cc book + a Bcc number (a rich send): the Cc/Bcc ride with the first request.
      const to = numbers(4);
      const rich = await a.app.api.send.submit({
        recipients: to,
        copies: { ccAddressBook: 'Board', bcc: [numbers(1, 300)[0]!] },
        content: VCARD,
      });
      expect(rich.job.extraReach).toBe(4);
      await jobFinished(a.app, rich.job.id, 200);
      const richAtA = await shown(a, rich.job.id);
      expect(richAtA.books).toHaveLength(1);
      expect(richAtA.books[0]!.extras?.fields).toEqual({
        SendBcc: numbers(1, 300)[0],
        SendCcAddressBook: 'Board',
      });
      const richAtB = await jobAt(
        b,
        (j) => j.content.kind === 'vcard' && j.sentBy?.here === false,
        "A's rich send at B",
      );
      await waitLong('the rich send at B as at A', async () => {
        const atB = await shown(b, richAtB.id);
        return JSON.stringify(atB) === JSON.stringify(richAtA);
      });
      expect(await shown(b, richAtB.id)).toEqual(richAtA);
      expect(richAtA.recipientCount).toBe(4);

      // Read-only at B, and B's journal holds no batch of either: it can never send any of them.
      await expect(b.app.api.outbox.continue(clubAtB.id)).rejects.toMatchObject({ code: 'invalid-state' });
      const db = new DatabaseSync(join(b.dir, 'messenger.sqlite'), { readOnly: true });
      try {
        expect(db.prepare('SELECT count(*) AS n FROM outbox_batches').get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
      // each member of the books, each number and the Bcc got it once
      expect([...sentTo(gw).values()].every((n) => n === 1)).toBe(true);
      expect(sentTo(gw).size).toBe(5 + 4 + 3 + 1);
      expect(await pg.query('SELECT count(*)::int AS n FROM send_batches')).toEqual([{ n: 2 }]);
    }, 120_000);
  },
);
