// Keyword auto-reply rules per account and the log that limits them (migration 008, issue 12): at
// most one auto-reply per number per rule per UTC day (the log's primary key), and a daily cap per
// account counted from the same log.
import { randomUUID } from 'node:crypto';
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { rowAs, rowsAs } from './rows.ts';
import type { AutoReplyRule } from '../../domain/index.ts';

interface RuleRow {
  id: number;
  keyword: string;
  reply: string;
  enabled: number;
  sent_today: number;
}

const toRule = (r: RuleRow): AutoReplyRule => ({
  id: r.id,
  keyword: r.keyword,
  reply: r.reply,
  enabled: r.enabled === 1,
  sentToday: r.sent_today,
});

/** The UTC day of `ms` as YYYY-MM-DD. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const SELECT = `SELECT r.id, r.keyword, r.reply, r.enabled,
  (SELECT count(*) FROM auto_reply_log l WHERE l.rule_id = r.id AND l.day = ?) AS sent_today
  FROM auto_reply_rules r`;

export class AutoRepliesRepo {
  readonly #app: AppDb;

  constructor(app: AppDb) {
    this.#app = app;
  }

  list(accountId: string, now = Date.now()): AutoReplyRule[] {
    return rowsAs<RuleRow>(
      this.#app.db.prepare(`${SELECT} WHERE r.account_id = ? ORDER BY r.id`).all(utcDay(now), accountId),
    ).map(toRule);
  }

  get(accountId: string, id: number, now = Date.now()): AutoReplyRule {
    const row = rowAs<RuleRow>(
      this.#app.db.prepare(`${SELECT} WHERE r.account_id = ? AND r.id = ?`).get(utcDay(now), accountId, id),
    );
    if (!row) throw new StoreError('not-found', `no auto-reply rule ${id}`);
    return toRule(row);
  }

  create(accountId: string, rule: { keyword: string; reply: string; enabled: boolean }): AutoReplyRule {
    const row = rowAs<{ id: number }>(
      this.#app.db
        .prepare(
          'INSERT INTO auto_reply_rules (account_id, keyword, reply, enabled, created_at, uid) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
        )
        // uid: the rule's identity in office mode, kept when its keyword changes (migration 054)
        .get(accountId, rule.keyword, rule.reply, rule.enabled ? 1 : 0, Date.now(), randomUUID()),
    );
    return this.get(accountId, row!.id);
  }

  update(
    accountId: string,
    id: number,
    changes: { keyword?: string; reply?: string; enabled?: boolean },
  ): AutoReplyRule {
    const now = this.get(accountId, id);
    this.#app.db
      .prepare(
        'UPDATE auto_reply_rules SET keyword = ?, reply = ?, enabled = ? WHERE id = ? AND account_id = ?',
      )
      .run(
        changes.keyword ?? now.keyword,
        changes.reply ?? now.reply,
        (changes.enabled ?? now.enabled) ? 1 : 0,
        id,
        accountId,
      );
    return this.get(accountId, id);
  }

  delete(accountId: string, id: number): void {
    this.#app.db.prepare('DELETE FROM auto_reply_rules WHERE id = ? AND account_id = ?').run(id, accountId);
  }

  /** Auto-replies the account sent on the UTC day of `now`. */
  sentOn(accountId: string, now = Date.now()): number {
    return (
      rowAs<{ n: number }>(
        this.#app.db
          .prepare('SELECT count(*) AS n FROM auto_reply_log WHERE account_id = ? AND day = ?')
          .get(accountId, utcDay(now)),
      )?.n ?? 0
    );
  }

  /**
   * Claims the one reply of `rule` to `number` today, unless the account's cap is reached: false
   * when either limit says no. One transaction, so two arrivals cannot both claim it.
   */
  claim(accountId: string, ruleId: number, number: string, cap: number, now = Date.now()): boolean {
    return this.#app.transaction(() => {
      if (this.sentOn(accountId, now) >= cap) return false;
      const r = this.#app.db
        .prepare(
          'INSERT INTO auto_reply_log (rule_id, number, day, account_id, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
        )
        .run(ruleId, number, utcDay(now), accountId, now);
      return Number(r.changes) === 1;
    });
  }

  /** The job that carried a claimed reply; its messages are marked automatic. */
  recordJob(ruleId: number, number: string, jobId: number, now = Date.now()): void {
    this.#app.transaction(() => {
      this.#app.db
        .prepare('UPDATE auto_reply_log SET job_id = ? WHERE rule_id = ? AND number = ? AND day = ?')
        .run(jobId, ruleId, number, utcDay(now));
      this.#app.db.prepare('UPDATE outbox_jobs SET auto_reply_rule = ? WHERE id = ?').run(ruleId, jobId);
      this.#app.db
        .prepare("UPDATE messages SET automatic = 1 WHERE job_id = ? AND direction = 'out'")
        .run(jobId);
      // An answer goes to a number that wrote (a listed conversation: its rows are `messages` rows);
      // a lean one (issue 27 item 6) would be marked too.
      this.#app.db
        .prepare(
          'UPDATE outbox_recipients SET automatic = 1 WHERE batch_id IN (SELECT id FROM outbox_batches WHERE job_id = ?)',
        )
        .run(jobId);
    });
  }
}
