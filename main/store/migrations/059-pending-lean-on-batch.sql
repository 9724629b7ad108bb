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

-- A number whose conversation is listed while a batch holds it in its value (a reply, a send to it
-- alone, `inbox.open`, an import, office mirroring): as migration 055's triggers move its lean rows
-- into `messages`, these move it out of the value, in the statement that lists it, as a thread row
-- with the batch's state (the numbers of a job are distinct: once per batch). Only batches holding
-- a value are read (few), each first by a search of its text for the number ("…" quoted: numbers are
-- digits), so a listing costs no JSON walk of a batch that does not hold it.
CREATE TRIGGER conversations_ai_pending AFTER INSERT ON conversations
  WHEN NEW.campaign_only = 0 AND EXISTS (SELECT 1 FROM outbox_batches WHERE lean IS NOT NULL) BEGIN
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, sent_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, p.value, j.content ->> '$.replyTo', b.lean_text, j.created_at, b.state, b.job_id,
         b.id, p.key, b.started_at, 1, (j.auto_reply_rule IS NOT NULL), j.label
    FROM outbox_batches b JOIN outbox_jobs j ON j.id = b.job_id, json_each(b.lean) p
   WHERE b.lean IS NOT NULL AND instr(b.lean, '"' || NEW.peer || '"') > 0
     AND coalesce(j.account_id, '') = NEW.account_id AND p.value = NEW.peer
   ORDER BY b.id, p.key;
  UPDATE outbox_batches
     SET lean = (SELECT json_group_array(CASE WHEN p.value = NEW.peer THEN NULL ELSE p.value END ORDER BY p.key)
                   FROM json_each(lean) p),
         lean_count = lean_count - 1
   WHERE lean IS NOT NULL AND instr(lean, '"' || NEW.peer || '"') > 0
     AND job_id IN (SELECT id FROM outbox_jobs WHERE coalesce(account_id, '') = NEW.account_id);
END;
CREATE TRIGGER conversations_au_pending AFTER UPDATE OF campaign_only ON conversations
  WHEN OLD.campaign_only = 1 AND NEW.campaign_only = 0
   AND EXISTS (SELECT 1 FROM outbox_batches WHERE lean IS NOT NULL) BEGIN
  INSERT INTO messages (conversation_id, direction, kind, peer, local, text, created_at, status, job_id,
                        batch_id, position, sent_at, read, automatic, label)
  SELECT NEW.id, 'out', j.kind, p.value, j.content ->> '$.replyTo', b.lean_text, j.created_at, b.state, b.job_id,
         b.id, p.key, b.started_at, 1, (j.auto_reply_rule IS NOT NULL), j.label
    FROM outbox_batches b JOIN outbox_jobs j ON j.id = b.job_id, json_each(b.lean) p
   WHERE b.lean IS NOT NULL AND instr(b.lean, '"' || NEW.peer || '"') > 0
     AND coalesce(j.account_id, '') = NEW.account_id AND p.value = NEW.peer
   ORDER BY b.id, p.key;
  UPDATE outbox_batches
     SET lean = (SELECT json_group_array(CASE WHEN p.value = NEW.peer THEN NULL ELSE p.value END ORDER BY p.key)
                   FROM json_each(lean) p),
         lean_count = lean_count - 1
   WHERE lean IS NOT NULL AND instr(lean, '"' || NEW.peer || '"') > 0
     AND job_id IN (SELECT id FROM outbox_jobs WHERE coalesce(account_id, '') = NEW.account_id);
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
