-- 008 (issue 12): Compose's draft per account, the opt-out list per account, keyword auto-reply
-- rules with the log that limits them (one reply per number per rule per day; a daily cap), and
-- the rule an outbox job answered (its messages are marked automatic in the conversation).

CREATE TABLE compose_drafts (
  account_id TEXT    PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  draft      TEXT    NOT NULL,          -- JSON of preload/api.ts SavedDraft
  updated_at INTEGER NOT NULL
);

-- Numbers that asked not to be sent to (STOP) or were added by the user; normalised MSISDNs.
CREATE TABLE opt_outs (
  account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  number     TEXT    NOT NULL,
  source     TEXT    NOT NULL CHECK (source IN ('keyword', 'manual')),
  keyword    TEXT,                      -- the inbound word that opted out (source 'keyword')
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, number)
);

CREATE TABLE auto_reply_rules (
  id         INTEGER PRIMARY KEY,
  account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  keyword    TEXT    NOT NULL,
  reply      TEXT    NOT NULL,
  enabled    INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  created_at INTEGER NOT NULL
);
CREATE INDEX auto_reply_rules_account ON auto_reply_rules (account_id, id);

-- One row per auto-reply sent: the primary key is the per-number limit (a second one the same UTC
-- day cannot be inserted), so two machines answering each other stop after one round.
CREATE TABLE auto_reply_log (
  rule_id    INTEGER NOT NULL REFERENCES auto_reply_rules (id) ON DELETE CASCADE,
  number     TEXT    NOT NULL,
  day        TEXT    NOT NULL,          -- YYYY-MM-DD (UTC)
  account_id TEXT    NOT NULL,
  job_id     INTEGER REFERENCES outbox_jobs (id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (rule_id, number, day)
);
CREATE INDEX auto_reply_log_day ON auto_reply_log (account_id, day);

ALTER TABLE outbox_jobs ADD COLUMN auto_reply_rule INTEGER REFERENCES auto_reply_rules (id) ON DELETE SET NULL;

-- An outbound message an auto-reply rule sent (shown as automatic in the conversation).
ALTER TABLE messages ADD COLUMN automatic INTEGER NOT NULL DEFAULT 0 CHECK (automatic IN (0, 1));

-- A conversation made only by campaign sends (more than one recipient) is not listed in the Inbox
-- until the number replies or is sent a message alone (then the flag is cleared).
ALTER TABLE conversations ADD COLUMN campaign_only INTEGER NOT NULL DEFAULT 0 CHECK (campaign_only IN (0, 1));
