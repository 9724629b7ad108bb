// Issue 28 (app migration 054): a keyword auto-reply rule has a uid of its own, its identity in office
// mode, kept when its keyword changes. Rules a desk already held are named as the office database
// named them until now (the keyword in upper case, the first rule of each keyword of an account), so a
// rule already shared stays the same record there; any other gets a random one; new rules get one.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openAppDb } from '../../../main/store/db.ts';
import { AutoRepliesRepo } from '../../../main/store/auto-replies.ts';
import { tempDbFile } from './helpers.ts';

describe('auto-reply rule uids (migration 054)', () => {
  it('names the rules held before as the office did, others at random, and keeps a uid across a keyword change', () => {
    const t = tempDbFile();
    try {
      const all = fileURLToPath(new URL('../../../main/store/migrations/', import.meta.url));
      const older = join(t.dir, 'older');
      cpSync(all, older, { recursive: true });
      for (const f of readdirSync(older)) if (Number(f.slice(0, 3)) >= 54) rmSync(join(older, f));
      const before = openAppDb(t.file, { migrationsDir: older });
      const add = before.db.prepare(
        "INSERT INTO accounts (id, label, username, primary_url, created_at, updated_at) VALUES (?, 'x', ?, 'https://gw', 0, 0)",
      );
      add.run('a1', 'one');
      add.run('a2', 'two');
      const rule = before.db.prepare(
        "INSERT INTO auto_reply_rules (account_id, keyword, reply, created_at) VALUES (?, ?, 'r', 0)",
      );
      for (const [account, keyword] of [
        ['a1', ' Hours '],
        ['a1', 'HOURS'],
        ['a1', 'prices'],
        ['a2', 'hours'],
      ] as const)
        rule.run(account, keyword);
      before.close();

      const app = openAppDb(t.file);
      try {
        const uids = app.db
          .prepare('SELECT account_id AS a, keyword AS k, uid FROM auto_reply_rules ORDER BY id')
          .all() as Array<{ a: string; k: string; uid: string }>;
        expect(uids.map((r) => [r.a, r.k, r.uid])).toEqual([
          ['a1', ' Hours ', 'HOURS'],
          ['a1', 'HOURS', expect.stringMatching(/^[0-9a-f]{32}$/)],
          ['a1', 'prices', 'PRICES'],
          ['a2', 'hours', 'HOURS'],
        ]);
        const repo = new AutoRepliesRepo(app);
        const made = repo.create('a2', { keyword: 'JOIN', reply: 'Welcome', enabled: true });
        const uidOf = (id: number) =>
          (app.db.prepare('SELECT uid FROM auto_reply_rules WHERE id = ?').get(id) as { uid: string }).uid;
        const uid = uidOf(made.id);
        expect(uid).toMatch(/^[0-9a-f-]{36}$/);
        repo.update('a2', made.id, { keyword: 'MEMBERS' });
        expect(uidOf(made.id)).toBe(uid);
      } finally {
        app.close();
      }
    } finally {
      t.cleanup();
    }
  });
});
