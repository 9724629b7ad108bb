-- migrate: foreign_keys off
-- 045 (issue 25 item 5): the Inbox per account. A conversation is one account's with one number
-- (account_id, peer); every message belongs to the account of its conversation: a reply to the
-- account whose session collected or received it, an outbound message to its job's account.
-- The table is rebuilt (the old UNIQUE (peer) cannot be dropped otherwise): foreign keys are off
-- for this migration (storage/sqlite.ts, SQLite's documented procedure, checked before COMMIT), so
-- dropping the old table deletes no message.
--
-- Existing rows, honestly: a conversation goes to the account of its newest outbound message that
-- has one (its job's account); with none, to the account current at this migration, else the one
-- saved last, else to no account (''). A conversation that more than one account sent to is split
-- by account: each outbound message goes to its job's account, each reply to the account of the
-- newest send to that number at or before it (the send it answers), a reply before any send and an
-- outbound message of no account stay with the conversation's own account.

CREATE TEMP TABLE fallback045 AS
  SELECT coalesce((SELECT id FROM accounts ORDER BY is_current DESC, updated_at DESC, id LIMIT 1), '') AS acc;

CREATE TEMP TABLE sent045 AS
  SELECT m.conversation_id AS cid, j.account_id AS acc, max(m.created_at) AS last_out
    FROM messages m JOIN outbox_jobs j ON j.id = m.job_id
   WHERE m.direction = 'out' AND j.account_id IS NOT NULL
   GROUP BY m.conversation_id, j.account_id;

CREATE TEMP TABLE own045 (cid INTEGER PRIMARY KEY, acc TEXT NOT NULL);
INSERT INTO own045 (cid, acc)
  SELECT cid, acc FROM (
    SELECT cid, acc, row_number() OVER (PARTITION BY cid ORDER BY last_out DESC, acc) AS n FROM sent045
  ) WHERE n = 1;

CREATE TABLE conversations_045 (
  id               INTEGER PRIMARY KEY,
  account_id       TEXT    NOT NULL DEFAULT '',   -- accounts.id ('': no account); kept when the account is removed
  peer             TEXT    NOT NULL,
  unread_count     INTEGER NOT NULL DEFAULT 0 CHECK (unread_count >= 0),
  marked_unread    INTEGER NOT NULL DEFAULT 0 CHECK (marked_unread IN (0, 1)),
  last_activity_at INTEGER NOT NULL,
  last_message_id  INTEGER,
  has_unread       INTEGER GENERATED ALWAYS AS (unread_count > 0 OR marked_unread = 1) VIRTUAL,
  archived         INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
  campaign_only    INTEGER NOT NULL DEFAULT 0 CHECK (campaign_only IN (0, 1)),
  UNIQUE (account_id, peer)
);

INSERT INTO conversations_045
    (id, account_id, peer, unread_count, marked_unread, last_activity_at, last_message_id, archived, campaign_only)
  SELECT cv.id, coalesce(o.acc, (SELECT acc FROM fallback045)), cv.peer, cv.unread_count, cv.marked_unread,
         cv.last_activity_at, cv.last_message_id, cv.archived, cv.campaign_only
    FROM conversations cv LEFT JOIN own045 o ON o.cid = cv.id;

-- the other accounts of a conversation sent to by more than one
INSERT INTO conversations_045 (account_id, peer, last_activity_at, archived, campaign_only)
  SELECT s.acc, cv.peer, 0, cv.archived, cv.campaign_only
    FROM sent045 s JOIN own045 o ON o.cid = s.cid AND o.acc <> s.acc JOIN conversations cv ON cv.id = s.cid;

CREATE TEMP TABLE move045 (id INTEGER PRIMARY KEY, cid INTEGER NOT NULL);
-- (CROSS JOIN keeps this order: from the few split conversations to their messages, never a scan of all)
INSERT INTO move045 (id, cid)
  SELECT m.id, n.id
    FROM sent045 s CROSS JOIN own045 o CROSS JOIN conversations cv CROSS JOIN conversations_045 n
    CROSS JOIN messages m CROSS JOIN outbox_jobs j
   WHERE o.cid = s.cid AND o.acc <> s.acc AND cv.id = s.cid AND n.account_id = s.acc AND n.peer = cv.peer
     AND m.conversation_id = s.cid AND m.direction = 'out' AND j.id = m.job_id AND j.account_id = s.acc;
INSERT INTO move045 (id, cid)
  SELECT x.id, n.id FROM (
    SELECT m.id, cv.peer, o.acc AS own,
           (SELECT j.account_id FROM messages s JOIN outbox_jobs j ON j.id = s.job_id
             WHERE s.conversation_id = m.conversation_id AND s.direction = 'out' AND j.account_id IS NOT NULL
               AND s.created_at <= m.created_at
             ORDER BY s.created_at DESC, s.id DESC LIMIT 1) AS acc
      FROM messages m JOIN conversations cv ON cv.id = m.conversation_id JOIN own045 o ON o.cid = m.conversation_id
     WHERE m.direction = 'in'
       AND m.conversation_id IN (SELECT cid FROM sent045 GROUP BY cid HAVING count(*) > 1)
  ) x JOIN conversations_045 n ON n.account_id = x.acc AND n.peer = x.peer
   WHERE x.acc <> x.own;

UPDATE messages SET conversation_id = (SELECT cid FROM move045 WHERE move045.id = messages.id)
 WHERE id IN (SELECT id FROM move045);

DROP TABLE conversations;
-- (legacy: the rename leaves the triggers on messages as they are; they name `conversations`)
PRAGMA legacy_alter_table = ON;
ALTER TABLE conversations_045 RENAME TO conversations;
PRAGMA legacy_alter_table = OFF;
-- The Inbox of one account by most recent activity (keyset pages), as conversations_recent was.
CREATE INDEX conversations_recent ON conversations (account_id, archived, last_activity_at DESC, id DESC);

-- The counts the triggers keep, made again where messages moved (split conversations).
UPDATE conversations
   SET unread_count = (SELECT count(*) FROM messages m
                        WHERE m.conversation_id = conversations.id AND m.direction = 'in' AND m.read = 0),
       last_activity_at = coalesce((SELECT max(m.created_at) FROM messages m
                                     WHERE m.conversation_id = conversations.id), last_activity_at),
       last_message_id = (SELECT m.id FROM messages m WHERE m.conversation_id = conversations.id
                           ORDER BY m.created_at DESC, m.id DESC LIMIT 1)
 WHERE id IN (SELECT cid FROM move045 UNION SELECT cid FROM sent045 GROUP BY cid HAVING count(*) > 1);

-- A reply spooled before this migration: the account of its username (the current one first).
ALTER TABLE reply_spool ADD COLUMN account_id TEXT;
UPDATE reply_spool SET account_id = (SELECT a.id FROM accounts a WHERE a.username = reply_spool.username
                                      ORDER BY a.is_current DESC, a.updated_at DESC LIMIT 1);

DROP TABLE fallback045;
DROP TABLE sent045;
DROP TABLE own045;
DROP TABLE move045;
