-- Issue 27 item 6 in office mode (main/office/sends-lean.ts, docs/OFFICE.md "Sends"): a send's
-- recipients kept in the journal's lean table (outbox_recipients, migration 055) are shared like its
-- `messages` rows, so the queue of changes to write to the office database (migration 048) also names
-- a lean recipient, by its key (batch_id, position): it has no message id. One queue, one counter:
-- `seq` is the version a recipient is written with (the office database keeps the newest), and a
-- recipient moved from the lean table into `messages` (its conversation listed, migration 055's
-- triggers) is then queued by its message id with a higher seq than any of its lean changes.
CREATE TABLE office_send_changes_057 (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  message_id INTEGER,   -- an outbound `messages` row, or
  batch_id   INTEGER,   -- a lean recipient (outbox_recipients) by its key
  position   INTEGER,
  CHECK ((message_id IS NULL) = (batch_id IS NOT NULL AND position IS NOT NULL))
);
INSERT INTO office_send_changes_057 (seq, message_id) SELECT seq, message_id FROM office_send_changes ORDER BY seq;
-- The counter goes on from where it was, even with the queue empty (a seq never given twice).
DELETE FROM sqlite_sequence WHERE name = 'office_send_changes_057';
INSERT INTO sqlite_sequence (name, seq)
  SELECT 'office_send_changes_057', seq FROM sqlite_sequence WHERE name = 'office_send_changes';
DROP TABLE office_send_changes;
ALTER TABLE office_send_changes_057 RENAME TO office_send_changes;

-- A recipient's place among its send's, as shared (main/office/sends-lean.ts), was its message id; it
-- is now its batch's seq and its position (the same for a lean row and a `messages` row). The sends
-- journaled before keep their message ids, so a recipient of one shared before, changed later (a late
-- receipt), keeps its place at the other desks.
INSERT INTO office_state (key, value)
  SELECT 'send-places-by-batch-after-job', coalesce(max(id), 0) FROM outbox_jobs;
