-- Issue 28, sends shared between the desks of an office (main/office/share-sends.ts, docs/OFFICE.md).

-- This desk's journal changes still to write to the office database: one row per outbound message
-- journaled or changed (its state, result, receipt), in the journal's own transaction. The rows are
-- written by TEMP triggers that exist only while office mode runs, so a desk of its own pays nothing.
-- (AUTOINCREMENT: seq is the version a recipient is written with, so it never goes back once emptied)
CREATE TABLE office_send_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, message_id INTEGER NOT NULL);

-- Sends of other desks, imported from the office database: each a row of outbox_jobs (History,
-- paging and the account scope read it like any send) WITHOUT batches or messages, so the journal
-- has nothing of it to claim, send, continue or recover: only the desk that journaled a send sends it.
CREATE TABLE office_sends (
  job_id    INTEGER PRIMARY KEY REFERENCES outbox_jobs (id) ON DELETE CASCADE,
  uid       TEXT NOT NULL UNIQUE,
  desk      TEXT NOT NULL,
  desk_name TEXT NOT NULL
);

-- Their recipients, each as the sending desk last shared it (status, result, receipt).
CREATE TABLE office_send_recipients (
  job_id             INTEGER NOT NULL REFERENCES office_sends (job_id) ON DELETE CASCADE,
  peer               TEXT NOT NULL,
  position           INTEGER NOT NULL,
  status             TEXT NOT NULL,
  message_identifier TEXT,
  report             TEXT,
  report_text        TEXT,
  classification     TEXT,
  receipt_report     TEXT,
  receipt_at         INTEGER,
  sent_at            INTEGER,
  PRIMARY KEY (job_id, peer)
);
CREATE INDEX office_send_recipients_order ON office_send_recipients (job_id, position);

-- Delivery receipts pushed here for a send this desk does not hold (another desk's), still to share.
CREATE TABLE office_receipts_out (
  id INTEGER PRIMARY KEY,
  account TEXT NOT NULL,
  uid TEXT NOT NULL,
  message_identifier TEXT NOT NULL,
  report TEXT NOT NULL,
  at INTEGER
);
