-- Issue 27 item 6: `outbox_lean_peers` (migration 059: where each lean number is, what the listing
-- triggers find a listed number's recipients by) keyed by number and batch, without the account: an
-- account id is a UUID (36 bytes) and was written once per lean recipient, with the number (12), in a
-- table written for every number of every send (~60 ms of a 100,000-recipient send's ~0.95 s). A
-- batch belongs to one job of one account, so (number, batch) is a key already; the account is read
-- through the batch's job (`outbox_lean_peer_accounts`, as the pending view reads it: '' for none),
-- by the triggers that list a number, and a number's few batches are found by its key's prefix.
--
-- A job whose account was removed (its account_id set to NULL) reads as account '' here, as its
-- recipients still in a batch's value already did (`outbox_lean_pending`).
DROP TRIGGER conversations_ai_recipients;
DROP TRIGGER conversations_au_recipients;
CREATE TABLE outbox_lean_peers_060 (
  peer     TEXT    NOT NULL,
  batch_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (peer, batch_id)
) WITHOUT ROWID;
INSERT INTO outbox_lean_peers_060 (peer, batch_id, position)
  SELECT peer, batch_id, position FROM outbox_lean_peers ORDER BY peer, batch_id;
DROP TABLE outbox_lean_peers;
ALTER TABLE outbox_lean_peers_060 RENAME TO outbox_lean_peers;

CREATE VIEW outbox_lean_peer_accounts AS
  SELECT d.peer AS peer, coalesce(j.account_id, '') AS account_id, d.batch_id AS batch_id, d.position AS position
    FROM outbox_lean_peers d JOIN outbox_batches b ON b.id = d.batch_id JOIN outbox_jobs j ON j.id = b.job_id;

-- Migration 059's two triggers, reading the accounts through the view.
CREATE TRIGGER conversations_ai_recipients AFTER INSERT ON conversations
  WHEN NEW.campaign_only = 0 BEGIN
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, message_identifier, report, report_text, classification, sent_at,
                        answered_at, receipt_report, receipt_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, r.peer, j.content ->> '$.replyTo', r.text, j.created_at, r.status, r.job_id,
         r.batch_id, r.position, r.message_identifier, r.report, r.report_text, r.classification, r.sent_at,
         r.answered_at, r.receipt_report, r.receipt_at, 1, r.automatic, j.label
    FROM outbox_lean_peer_accounts d CROSS JOIN outbox_recipients r ON r.batch_id = d.batch_id AND r.position = d.position
    JOIN outbox_jobs j ON j.id = r.job_id
   WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer
   ORDER BY r.batch_id, r.position;
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, message_identifier, report, report_text, classification, sent_at,
                        answered_at, receipt_report, receipt_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, d.peer, j.content ->> '$.replyTo', b.lean_text, j.created_at, b.state, b.job_id,
         b.id, d.position, NULL, NULL, NULL, NULL, b.started_at,
         NULL, NULL, NULL, 1, (j.auto_reply_rule IS NOT NULL), j.label
    FROM outbox_lean_peer_accounts d CROSS JOIN outbox_batches b ON b.id = d.batch_id JOIN outbox_jobs j ON j.id = b.job_id
   WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer AND b.lean ->> d.position = d.peer
   ORDER BY b.id, d.position;
  UPDATE outbox_batches
     SET lean = json_replace(lean, '$[' || (SELECT d.position FROM outbox_lean_peer_accounts d WHERE d.account_id = NEW.account_id
                                             AND d.peer = NEW.peer AND d.batch_id = outbox_batches.id) || ']', NULL),
         lean_count = lean_count - 1
   WHERE id IN (SELECT d.batch_id FROM outbox_lean_peer_accounts d WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer
                   AND (SELECT b.lean ->> d.position FROM outbox_batches b WHERE b.id = d.batch_id) = d.peer);
  DELETE FROM outbox_recipients
   WHERE (batch_id, position) IN (SELECT batch_id, position FROM outbox_lean_peer_accounts
                                   WHERE account_id = NEW.account_id AND peer = NEW.peer);
  DELETE FROM outbox_lean_peers
   WHERE peer = NEW.peer AND batch_id IN (SELECT batch_id FROM outbox_lean_peer_accounts
                                           WHERE account_id = NEW.account_id AND peer = NEW.peer);
END;
CREATE TRIGGER conversations_au_recipients AFTER UPDATE OF campaign_only ON conversations
  WHEN OLD.campaign_only = 1 AND NEW.campaign_only = 0 BEGIN
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, message_identifier, report, report_text, classification, sent_at,
                        answered_at, receipt_report, receipt_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, r.peer, j.content ->> '$.replyTo', r.text, j.created_at, r.status, r.job_id,
         r.batch_id, r.position, r.message_identifier, r.report, r.report_text, r.classification, r.sent_at,
         r.answered_at, r.receipt_report, r.receipt_at, 1, r.automatic, j.label
    FROM outbox_lean_peer_accounts d CROSS JOIN outbox_recipients r ON r.batch_id = d.batch_id AND r.position = d.position
    JOIN outbox_jobs j ON j.id = r.job_id
   WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer
   ORDER BY r.batch_id, r.position;
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, message_identifier, report, report_text, classification, sent_at,
                        answered_at, receipt_report, receipt_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, d.peer, j.content ->> '$.replyTo', b.lean_text, j.created_at, b.state, b.job_id,
         b.id, d.position, NULL, NULL, NULL, NULL, b.started_at,
         NULL, NULL, NULL, 1, (j.auto_reply_rule IS NOT NULL), j.label
    FROM outbox_lean_peer_accounts d CROSS JOIN outbox_batches b ON b.id = d.batch_id JOIN outbox_jobs j ON j.id = b.job_id
   WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer AND b.lean ->> d.position = d.peer
   ORDER BY b.id, d.position;
  UPDATE outbox_batches
     SET lean = json_replace(lean, '$[' || (SELECT d.position FROM outbox_lean_peer_accounts d WHERE d.account_id = NEW.account_id
                                             AND d.peer = NEW.peer AND d.batch_id = outbox_batches.id) || ']', NULL),
         lean_count = lean_count - 1
   WHERE id IN (SELECT d.batch_id FROM outbox_lean_peer_accounts d WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer
                   AND (SELECT b.lean ->> d.position FROM outbox_batches b WHERE b.id = d.batch_id) = d.peer);
  DELETE FROM outbox_recipients
   WHERE (batch_id, position) IN (SELECT batch_id, position FROM outbox_lean_peer_accounts
                                   WHERE account_id = NEW.account_id AND peer = NEW.peer);
  DELETE FROM outbox_lean_peers
   WHERE peer = NEW.peer AND batch_id IN (SELECT batch_id FROM outbox_lean_peer_accounts
                                           WHERE account_id = NEW.account_id AND peer = NEW.peer);
END;
