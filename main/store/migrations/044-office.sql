-- Issue 28, office mode (main/office/, docs/OFFICE.md): what a desk keeps of the office database.
-- office_state: this desk's id and, per office database and account, how far it has followed
-- each feed (the last inbound and opt-out change id imported).
CREATE TABLE office_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- Writes for the office database not yet made there, in order: an inbound reply stored here (in
-- the same transaction as the message itself), an opt-out list change. Sent and deleted once the
-- office database has them (each idempotent there by its uid); kept across restarts and outages.
CREATE TABLE office_outbox (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('inbound', 'optout')),
  account TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- The office uid of every reply in this desk's store (collected here or imported): a reply is
-- imported once whatever the feed replays.
CREATE TABLE office_uids (uid TEXT PRIMARY KEY, message_id INTEGER);
