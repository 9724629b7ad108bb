-- Sends shared between desks (main/office/share-sends.ts, docs/OFFICE.md): every desk's sends with
-- their recipients' results and receipts, so that History and campaigns at every desk show them.
-- Only the desk that journaled a send (desk) ever sends, continues or recovers it.

-- A send as its desk journaled it (uid: that desk's id, its local job id and creation time).
CREATE TABLE sends (
  id bigserial PRIMARY KEY,
  account text NOT NULL,
  uid text NOT NULL,
  desk text NOT NULL,
  created_at bigint NOT NULL,
  content text NOT NULL,
  resend_of text,
  UNIQUE (account, uid)
);

-- Each recipient of a send as its desk last wrote it. `version` (the desk's own change counter)
-- keeps an older write from replacing a newer one; `change` (from send_changes, written under the
-- feed writers' advisory lock, so in commit order) is the feed the other desks follow.
CREATE SEQUENCE send_changes;
CREATE TABLE send_recipients (
  account text NOT NULL,
  send_id bigint NOT NULL REFERENCES sends (id),
  peer text NOT NULL,
  position bigint NOT NULL,
  status text NOT NULL,
  message_identifier text,
  report text,
  report_text text,
  classification text,
  receipt_report text,
  receipt_at bigint,
  sent_at bigint,
  version bigint NOT NULL,
  change bigint NOT NULL,
  PRIMARY KEY (send_id, peer)
);
CREATE INDEX send_recipients_feed ON send_recipients (account, change);

-- Delivery receipts the gateway pushed to a desk that does not hold their send (the account has one push
-- URL): shared, so that the desk that sent it applies them (and shares its recipient's new state).
CREATE TABLE receipts (
  id bigserial PRIMARY KEY,
  account text NOT NULL,
  uid text NOT NULL UNIQUE,
  message_identifier text NOT NULL,
  report text NOT NULL,
  at bigint,
  desk text NOT NULL
);
CREATE INDEX receipts_feed ON receipts (account, id);
