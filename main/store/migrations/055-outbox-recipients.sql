-- Issue 27 item 6: a send to many keeps the recipients that have no Inbox conversation in a lean
-- table of the journal's own, not in `messages`. Such a recipient used to cost a `messages` row (six
-- indexes, an FTS row, the conversation trigger) and a campaign-only conversation (two indexes), each
-- written when journaled and updated twice (sending, answered): ~1.7 s of CPU for 100,000 recipients,
-- three times the bare client's whole send. Here a recipient is one row of one b-tree, plus an entry
-- in the MessageIdentifier index once answered and one in the (account, peer) index below.
--
-- What reads it: the journal (a batch's recipients are its `messages` rows and its rows here, by
-- position), History, the campaign view, receipts (by MessageIdentifier), resends and office sharing.
-- Threads, the conversation list, search and exports read `messages` only, and lose nothing: a
-- recipient is kept here only while the number has no listed conversation of the job's account (the
-- Inbox does not show those, issue 12). When such a conversation is listed (a reply from the number,
-- or a message to it alone) or created listed, the triggers below move the number's rows into
-- `messages` as thread rows, in the same statement, so a reply to a campaign shows under it as before.
CREATE TABLE outbox_recipients (
  batch_id           INTEGER NOT NULL REFERENCES outbox_batches (id) ON DELETE CASCADE,
  position           INTEGER NOT NULL,             -- place in the batch's SendTo list
  job_id             INTEGER NOT NULL,             -- the batch's job (read without a join)
  account_id         TEXT    NOT NULL DEFAULT '',  -- the conversation key's account ('' none)
  peer               TEXT    NOT NULL,             -- the conversation key's number (normalised)
  text               TEXT    NOT NULL,             -- the job's text, or a mail merge's own
  status             TEXT    NOT NULL,
  message_identifier TEXT,
  report             TEXT,
  report_text        TEXT,
  classification     TEXT,
  sent_at            INTEGER,
  answered_at        INTEGER,
  receipt_report     TEXT,
  receipt_at         INTEGER,
  automatic          INTEGER NOT NULL DEFAULT 0 CHECK (automatic IN (0, 1)),
  PRIMARY KEY (batch_id, position)
) WITHOUT ROWID;
CREATE INDEX outbox_recipients_mid ON outbox_recipients (message_identifier)
  WHERE message_identifier IS NOT NULL;
CREATE INDEX outbox_recipients_peer ON outbox_recipients (account_id, peer);

-- What a thread row of the job shows (protocol/content-label.ts), written when the job is journaled,
-- so a moved recipient's row has it as one journaled in `messages` does.
ALTER TABLE outbox_jobs ADD COLUMN label TEXT;

CREATE TRIGGER conversations_ai_recipients AFTER INSERT ON conversations
  WHEN NEW.campaign_only = 0 BEGIN
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, message_identifier, report, report_text, classification, sent_at,
                        answered_at, receipt_report, receipt_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, r.peer, j.content ->> '$.replyTo', r.text, j.created_at, r.status, r.job_id,
         r.batch_id, r.position, r.message_identifier, r.report, r.report_text, r.classification, r.sent_at,
         r.answered_at, r.receipt_report, r.receipt_at, 1, r.automatic, j.label
    FROM outbox_recipients r JOIN outbox_jobs j ON j.id = r.job_id
   WHERE r.account_id = NEW.account_id AND r.peer = NEW.peer
   ORDER BY r.batch_id, r.position;
  DELETE FROM outbox_recipients WHERE account_id = NEW.account_id AND peer = NEW.peer;
END;

CREATE TRIGGER conversations_au_recipients AFTER UPDATE OF campaign_only ON conversations
  WHEN OLD.campaign_only = 1 AND NEW.campaign_only = 0 BEGIN
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, message_identifier, report, report_text, classification, sent_at,
                        answered_at, receipt_report, receipt_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, r.peer, j.content ->> '$.replyTo', r.text, j.created_at, r.status, r.job_id,
         r.batch_id, r.position, r.message_identifier, r.report, r.report_text, r.classification, r.sent_at,
         r.answered_at, r.receipt_report, r.receipt_at, 1, r.automatic, j.label
    FROM outbox_recipients r JOIN outbox_jobs j ON j.id = r.job_id
   WHERE r.account_id = NEW.account_id AND r.peer = NEW.peer
   ORDER BY r.batch_id, r.position;
  DELETE FROM outbox_recipients WHERE account_id = NEW.account_id AND peer = NEW.peer;
END;
