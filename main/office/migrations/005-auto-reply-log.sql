-- Issue 28: the keyword auto-replies' per-day log, the account's (every desk signed in to it), so
-- that the limits hold whichever desk collects: one reply per number per rule per UTC day, and the
-- account's daily cap (main/office/auto-reply-log.ts). Each desk still keeps its own log as well
-- (its view's "sent today", and the limits while the office database is away). rule: the rule's
-- uid, its key in `library` (app migration 054: kept when its keyword changes; a rule shared before
-- then is named by its keyword in upper case, as 003 says, and keeps that name).
CREATE TABLE auto_reply_log (
  account text NOT NULL,
  rule text NOT NULL,
  number text NOT NULL,
  day text NOT NULL,
  desk text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account, rule, number, day)
);
CREATE INDEX auto_reply_log_day ON auto_reply_log (account, day);
