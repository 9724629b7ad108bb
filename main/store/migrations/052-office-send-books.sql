-- Issue 28, sends shared between desks (main/office/sends-local.ts, docs/OFFICE.md "Sends"): the parts of a
-- send that have no recipient rows — a batch that carried a server address book or the Cc/Bcc (issue 16,
-- migration 013) — and each recipient's own text (a mail merge's), so another desk shows the send whole.

-- This desk's book / Cc/Bcc batches journaled or changed, still to write to the office database (one row per
-- change, written by TEMP triggers that exist only while office mode runs, in the journal's transaction).
-- (AUTOINCREMENT: seq is the version a batch is written with, so it never goes back once emptied)
CREATE TABLE office_batch_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, batch_id INTEGER NOT NULL);

-- Another desk's book / Cc/Bcc batches as that desk last shared them (History and the campaign view read them
-- as the batches of its send; this desk's journal never sees them: nothing of them can be claimed or sent).
CREATE TABLE office_send_batches (
  id             INTEGER PRIMARY KEY,
  job_id         INTEGER NOT NULL REFERENCES office_sends (job_id) ON DELETE CASCADE,
  seq            INTEGER NOT NULL,
  state          TEXT NOT NULL,
  created_at     INTEGER NOT NULL,
  started_at     INTEGER,
  finished_at    INTEGER,
  reason         TEXT,
  unknown_cause  TEXT,
  extra_fields   TEXT NOT NULL,
  reach          INTEGER,
  extra_answered INTEGER,
  extra_accepted INTEGER,
  extra_rejected INTEGER,
  UNIQUE (job_id, seq)
);

-- A recipient's text when it is not the send's (a mail merge); NULL: the send's text.
ALTER TABLE office_send_recipients ADD COLUMN text TEXT;
-- Another desk's messages to a number, for that number's conversation thread (issue 28).
CREATE INDEX office_send_recipients_peer ON office_send_recipients (peer);
