-- Issue 27 item 6: a pending (or claimed, 'sending') batch keeps its lean recipients' numbers as one
-- value on its row, not as rows of `outbox_recipients` (migration 055). A lean row was written
-- 'pending' before any request (the journal's promise), rewritten 'sending' when its batch was
-- claimed and again when answered: each row's page written three times. Now the numbers are on disk
-- before the first request all the same (createJob's transaction), claiming a batch changes its row
-- only, and its `outbox_recipients` rows are written once, when the batch ends (answered, made
-- unknown, rejected: main/store/outbox-pending.ts).
--
-- `lean`: the batch's SendTo list as a JSON array, a number where the recipient is lean and null
-- where it is a `messages` row (its position); NULL once the batch has ended (its rows written).
-- `lean_count`: how many numbers `lean` holds (the job counts read it, not the array).
-- `lean_text`: the text of those recipients (the job's, or a mail merge's own: one per batch).
ALTER TABLE outbox_batches ADD COLUMN lean TEXT;
ALTER TABLE outbox_batches ADD COLUMN lean_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox_batches ADD COLUMN lean_text TEXT;
-- The batches holding a value: few (a send being sent, or one interrupted), found without a scan.
CREATE INDEX outbox_batches_lean ON outbox_batches (job_id) WHERE lean IS NOT NULL;

-- A batch's lean recipients still in its value, with the columns of `outbox_recipients` (their
-- status the batch's state, their send time its start, automatic when the job is an auto-reply's):
-- readers add it to the table's rows. A view of no compound, so a query filtering it by batch or job
-- is flattened into a seek of outbox_batches and the JSON of those batches only.
CREATE VIEW outbox_lean_pending AS
  SELECT b.id AS batch_id, p.key AS position, b.job_id AS job_id, coalesce(j.account_id, '') AS account_id,
         p.value AS peer, b.lean_text AS text, b.state AS status, NULL AS message_identifier, NULL AS report,
         NULL AS report_text, NULL AS classification, b.started_at AS sent_at, NULL AS answered_at,
         NULL AS receipt_report, NULL AS receipt_at, (j.auto_reply_rule IS NOT NULL) AS automatic
    FROM outbox_batches b JOIN outbox_jobs j ON j.id = b.job_id, json_each(b.lean) p
   WHERE b.lean IS NOT NULL AND p.value IS NOT NULL;

-- Where each lean number is (its rows', or its batch's value's, batch and position), by account and
-- number: what finds them when the number is listed. It was the index outbox_recipients_peer (migration
-- 055); rows written when a batch ends, batch after batch, put a campaign's numbers in that index in
-- their SendTo order, a page of it rewritten for each of a few numbers at every commit (~0.7 s of CPU for
-- 100,000 numbers in no order): this table is written once, with the job, its numbers sorted
-- (main/store/outbox-jobs.ts), and a number moves with its recipient (the opted-out skip).
CREATE TABLE outbox_lean_peers (
  account_id TEXT    NOT NULL,
  peer       TEXT    NOT NULL,
  batch_id   INTEGER NOT NULL,
  position   INTEGER NOT NULL,
  PRIMARY KEY (account_id, peer, batch_id)
) WITHOUT ROWID;
INSERT INTO outbox_lean_peers (account_id, peer, batch_id, position)
  SELECT account_id, peer, batch_id, position FROM outbox_recipients ORDER BY account_id, peer, batch_id;
DROP INDEX outbox_recipients_peer;

-- A number listed (a reply, a send to it alone, `inbox.open`, an import, office mirroring): migration
-- 055's triggers, now finding the number's lean rows through outbox_lean_peers, and moving it out of
-- the value of a batch not ended yet too (as a thread row with the batch's state), in the statement
-- that lists it.
DROP TRIGGER conversations_ai_recipients;
DROP TRIGGER conversations_au_recipients;
CREATE TRIGGER conversations_ai_recipients AFTER INSERT ON conversations
  WHEN NEW.campaign_only = 0 BEGIN
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, message_identifier, report, report_text, classification, sent_at,
                        answered_at, receipt_report, receipt_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, r.peer, j.content ->> '$.replyTo', r.text, j.created_at, r.status, r.job_id,
         r.batch_id, r.position, r.message_identifier, r.report, r.report_text, r.classification, r.sent_at,
         r.answered_at, r.receipt_report, r.receipt_at, 1, r.automatic, j.label
    FROM outbox_lean_peers d CROSS JOIN outbox_recipients r ON r.batch_id = d.batch_id AND r.position = d.position
    JOIN outbox_jobs j ON j.id = r.job_id
   WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer
   ORDER BY r.batch_id, r.position;
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, message_identifier, report, report_text, classification, sent_at,
                        answered_at, receipt_report, receipt_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, d.peer, j.content ->> '$.replyTo', b.lean_text, j.created_at, b.state, b.job_id,
         b.id, d.position, NULL, NULL, NULL, NULL, b.started_at,
         NULL, NULL, NULL, 1, (j.auto_reply_rule IS NOT NULL), j.label
    FROM outbox_lean_peers d CROSS JOIN outbox_batches b ON b.id = d.batch_id JOIN outbox_jobs j ON j.id = b.job_id
   WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer AND b.lean ->> d.position = d.peer
   ORDER BY b.id, d.position;
  UPDATE outbox_batches
     SET lean = json_replace(lean, '$[' || (SELECT d.position FROM outbox_lean_peers d WHERE d.account_id = NEW.account_id
                                             AND d.peer = NEW.peer AND d.batch_id = outbox_batches.id) || ']', NULL),
         lean_count = lean_count - 1
   WHERE id IN (SELECT d.batch_id FROM outbox_lean_peers d WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer
                   AND (SELECT b.lean ->> d.position FROM outbox_batches b WHERE b.id = d.batch_id) = d.peer);
  DELETE FROM outbox_recipients
   WHERE (batch_id, position) IN (SELECT batch_id, position FROM outbox_lean_peers
                                   WHERE account_id = NEW.account_id AND peer = NEW.peer);
  DELETE FROM outbox_lean_peers WHERE account_id = NEW.account_id AND peer = NEW.peer;
END;
CREATE TRIGGER conversations_au_recipients AFTER UPDATE OF campaign_only ON conversations
  WHEN OLD.campaign_only = 1 AND NEW.campaign_only = 0 BEGIN
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, message_identifier, report, report_text, classification, sent_at,
                        answered_at, receipt_report, receipt_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, r.peer, j.content ->> '$.replyTo', r.text, j.created_at, r.status, r.job_id,
         r.batch_id, r.position, r.message_identifier, r.report, r.report_text, r.classification, r.sent_at,
         r.answered_at, r.receipt_report, r.receipt_at, 1, r.automatic, j.label
    FROM outbox_lean_peers d CROSS JOIN outbox_recipients r ON r.batch_id = d.batch_id AND r.position = d.position
    JOIN outbox_jobs j ON j.id = r.job_id
   WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer
   ORDER BY r.batch_id, r.position;
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, message_identifier, report, report_text, classification, sent_at,
                        answered_at, receipt_report, receipt_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, d.peer, j.content ->> '$.replyTo', b.lean_text, j.created_at, b.state, b.job_id,
         b.id, d.position, NULL, NULL, NULL, NULL, b.started_at,
         NULL, NULL, NULL, 1, (j.auto_reply_rule IS NOT NULL), j.label
    FROM outbox_lean_peers d CROSS JOIN outbox_batches b ON b.id = d.batch_id JOIN outbox_jobs j ON j.id = b.job_id
   WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer AND b.lean ->> d.position = d.peer
   ORDER BY b.id, d.position;
  UPDATE outbox_batches
     SET lean = json_replace(lean, '$[' || (SELECT d.position FROM outbox_lean_peers d WHERE d.account_id = NEW.account_id
                                             AND d.peer = NEW.peer AND d.batch_id = outbox_batches.id) || ']', NULL),
         lean_count = lean_count - 1
   WHERE id IN (SELECT d.batch_id FROM outbox_lean_peers d WHERE d.account_id = NEW.account_id AND d.peer = NEW.peer
                   AND (SELECT b.lean ->> d.position FROM outbox_batches b WHERE b.id = d.batch_id) = d.peer);
  DELETE FROM outbox_recipients
   WHERE (batch_id, position) IN (SELECT batch_id, position FROM outbox_lean_peers
                                   WHERE account_id = NEW.account_id AND peer = NEW.peer);
  DELETE FROM outbox_lean_peers WHERE account_id = NEW.account_id AND peer = NEW.peer;
END;

-- Files journaled before: a pending or sending batch's lean rows become its value (positions kept,
-- null where a `messages` row is or a skipped recipient was), then leave the table.
UPDATE outbox_batches AS b
   SET lean = (
         SELECT json_group_array(r.peer ORDER BY n.p)
           FROM (WITH RECURSIVE n(p) AS (
                   SELECT 0 UNION ALL SELECT p + 1 FROM n
                    WHERE p < (SELECT max(position) FROM outbox_recipients x
                                JOIN outbox_batches y ON y.id = x.batch_id
                               WHERE y.state IN ('pending', 'sending')))
                 SELECT p FROM n) AS n
           LEFT JOIN outbox_recipients r ON r.batch_id = b.id AND r.position = n.p
          WHERE n.p <= (SELECT max(position) FROM outbox_recipients WHERE batch_id = b.id)),
       lean_count = (SELECT count(*) FROM outbox_recipients WHERE batch_id = b.id),
       lean_text = (SELECT text FROM outbox_recipients WHERE batch_id = b.id LIMIT 1)
 WHERE b.state IN ('pending', 'sending') AND EXISTS (SELECT 1 FROM outbox_recipients WHERE batch_id = b.id);
DELETE FROM outbox_recipients
 WHERE batch_id IN (SELECT id FROM outbox_batches WHERE state IN ('pending', 'sending') AND lean IS NOT NULL);

-- The job counts (each progress event of a send reads them: main/services/send-progress.ts) count a
-- batch not ended by its `lean_count`, and an ended batch's lean rows by status here, one row per
-- batch and status: O(batches), not a read of every row. Written when the batch's rows are (the
-- journal recounts the batch after writing them: main/store/outbox-pending.ts recountLean), and
-- kept by these triggers when a row's status changes (a receipt) or it leaves (moved into `messages`).
CREATE TABLE outbox_lean_counts (
  batch_id INTEGER NOT NULL,
  status   TEXT    NOT NULL,
  n        INTEGER NOT NULL,
  PRIMARY KEY (batch_id, status)
) WITHOUT ROWID;
INSERT INTO outbox_lean_counts (batch_id, status, n)
  SELECT batch_id, status, count(*) FROM outbox_recipients GROUP BY batch_id, status;
CREATE TRIGGER outbox_recipients_counted AFTER UPDATE OF status ON outbox_recipients
  WHEN OLD.status IS NOT NEW.status BEGIN
  UPDATE outbox_lean_counts SET n = n - 1 WHERE batch_id = OLD.batch_id AND status = OLD.status;
  INSERT INTO outbox_lean_counts (batch_id, status, n) VALUES (NEW.batch_id, NEW.status, 1)
    ON CONFLICT (batch_id, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER outbox_recipients_uncounted AFTER DELETE ON outbox_recipients BEGIN
  UPDATE outbox_lean_counts SET n = n - 1 WHERE batch_id = OLD.batch_id AND status = OLD.status;
END;
