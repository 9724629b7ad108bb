// Issue 28 (a finding of the session that shared earlier sends): History lists an account's sends by
// when they were made. In office mode another desk's send, or a joining desk's earlier ones, are
// stored when they arrive, with a larger id than newer sends of this desk: by id they sorted first.
import { describe, expect, it } from 'vitest';
import type { AppDb } from '../../../main/store/db.ts';
import { AccountsRepo } from '../../../main/store/accounts.ts';
import { OutboxAccountRepo } from '../../../main/store/outbox-account.ts';
import type { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { withJournal } from './helpers.ts';

let app: AppDb;
let journal: OutboxJournal;
withJournal((a, j) => {
  app = a;
  journal = j;
});

describe('History order', () => {
  it('is newest made first, whatever order the sends were stored in, page by page', () => {
    const accounts = new AccountsRepo(app);
    const acc = accounts.save({ username: 'front', primaryUrl: 'https://gw.example.com' }).id;
    const otherAcc = accounts.save({ username: 'other', primaryUrl: 'https://gw.example.com' }).id;
    const made = (at: number, accountId: string | null) => {
      const job = journal.createJob(
        ['447700900001'],
        { kind: 'text', text: `at ${at}` },
        {
          ...(accountId === null ? {} : { accountId }),
        },
      );
      app.db.prepare('UPDATE outbox_jobs SET created_at = ? WHERE id = ?').run(at, job.id);
      return job.id;
    };
    const at3000 = made(3_000, acc);
    const at1000 = made(1_000, acc); // stored after, made before (another desk's, arrived late)
    const noAccount = made(2_000, null); // before the app kept accounts: listed with every account
    const other = made(4_000, otherAcc);
    const at2000 = made(2_000, acc); // the same time as noAccount: the larger id first
    const repo = new OutboxAccountRepo(app);
    expect(repo.jobIds(acc)).toEqual([at3000, at2000, noAccount, at1000]);
    expect(repo.jobIds(acc, { limit: 2 })).toEqual([at3000, at2000]);
    expect(repo.jobIds(acc, { limit: 2, beforeId: at2000 })).toEqual([noAccount, at1000]);
    expect(repo.jobIds(acc, { beforeId: at1000 })).toEqual([]);
    expect(repo.jobIds(otherAcc)).toEqual([other, noAccount]);
  });
});
