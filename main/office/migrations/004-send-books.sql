-- Sends shared whole (main/office/share-sends.ts, docs/OFFICE.md "Sends"): the batches of a send that have no
-- recipient rows — a server address book, or the Cc/Bcc of its first request (the app's migration 013) — with
-- what they reach and what the gateway answered for them; and a recipient's own text (a mail merge's).

-- A book / Cc/Bcc batch as its desk last wrote it; `version` and `change` as for send_recipients (002).
CREATE TABLE send_batches (
  account text NOT NULL,
  send_id bigint NOT NULL REFERENCES sends (id),
  seq bigint NOT NULL,
  state text NOT NULL,
  created_at bigint NOT NULL,
  started_at bigint,
  finished_at bigint,
  reason text,
  unknown_cause text,
  extra_fields text NOT NULL,
  reach bigint,
  extra_answered bigint,
  extra_accepted bigint,
  extra_rejected bigint,
  version bigint NOT NULL,
  change bigint NOT NULL,
  PRIMARY KEY (send_id, seq)
);
CREATE INDEX send_batches_feed ON send_batches (account, change);

-- NULL: the send's text.
ALTER TABLE send_recipients ADD COLUMN text text;
