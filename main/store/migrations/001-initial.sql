-- The app's storage, version 1. Times are milliseconds since the Unix epoch (UTC), so they sort
-- and compare as integers; phone numbers are normalised MSISDNs (international, digits only, no
-- '+', spec 2.2) unless a sender could not be normalised (alphanumeric originators), then as given.

-- One conversation per peer number. unread_count and last_activity_at are kept by triggers on
-- messages below, so no code path can forget them.
CREATE TABLE conversations (
  id               INTEGER PRIMARY KEY,
  peer             TEXT    NOT NULL UNIQUE,
  unread_count     INTEGER NOT NULL DEFAULT 0 CHECK (unread_count >= 0),
  marked_unread    INTEGER NOT NULL DEFAULT 0 CHECK (marked_unread IN (0, 1)),
  last_activity_at INTEGER NOT NULL,
  last_message_id  INTEGER,
  has_unread       INTEGER GENERATED ALWAYS AS (unread_count > 0 OR marked_unread = 1) VIRTUAL
);
-- The inbox order: unread first, then most recent activity; id breaks ties (keyset pagination).
CREATE INDEX conversations_inbox ON conversations (has_unread DESC, last_activity_at DESC, id DESC);

-- The outbox journal: a job is what the user asked to send; it is split into batches of at most
-- LIMITS.maxRecipientsPerRequest numbers, one gateway request each.
CREATE TABLE outbox_jobs (
  id          INTEGER PRIMARY KEY,
  created_at  INTEGER NOT NULL,
  kind        TEXT    NOT NULL,
  text        TEXT    NOT NULL DEFAULT '',
  content     TEXT    NOT NULL,          -- JSON of the whole OutboxContent
  resend_of   INTEGER REFERENCES outbox_jobs (id) ON DELETE SET NULL
);

CREATE TABLE outbox_batches (
  id          INTEGER PRIMARY KEY,
  job_id      INTEGER NOT NULL REFERENCES outbox_jobs (id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  state       TEXT    NOT NULL DEFAULT 'pending'
              CHECK (state IN ('pending', 'sending', 'accepted', 'rejected', 'unknown')),
  created_at  INTEGER NOT NULL,
  started_at  INTEGER,
  finished_at INTEGER,
  reason      TEXT,
  UNIQUE (job_id, seq)
);
CREATE INDEX outbox_batches_state ON outbox_batches (state, id);

-- Every message, both directions. An outbound row is one recipient of one outbox batch (the
-- journal's "recipients per batch"); an inbound row is one collected mobile-originated message.
CREATE TABLE messages (
  id                 INTEGER PRIMARY KEY,
  conversation_id    INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  direction          TEXT    NOT NULL CHECK (direction IN ('in', 'out')),
  kind               TEXT    NOT NULL DEFAULT 'text',
  peer               TEXT    NOT NULL,    -- recipient (out) or sender (in)
  local              TEXT,                -- ReplyTo used (out) or the number it was sent to (in)
  text               TEXT    NOT NULL DEFAULT '',
  created_at         INTEGER NOT NULL,    -- journaled (out) or received (in)
  status             TEXT    NOT NULL,
  -- outbound
  job_id             INTEGER REFERENCES outbox_jobs (id) ON DELETE SET NULL,
  batch_id           INTEGER REFERENCES outbox_batches (id) ON DELETE SET NULL,
  position           INTEGER,             -- place in the batch's SendTo list
  message_identifier TEXT,
  report             TEXT,
  report_text        TEXT,
  classification     TEXT,                -- protocol ReportGroup of `report`
  sent_at            INTEGER,
  answered_at        INTEGER,
  receipt_report     TEXT,
  receipt_at         INTEGER,
  -- inbound
  sent_timestamp     TEXT,                -- the gateway's Timestamp1, as given
  gateway_id         TEXT,
  dedupe_key         TEXT UNIQUE,         -- each inbound message is stored once
  read               INTEGER NOT NULL DEFAULT 1 CHECK (read IN (0, 1))
);
CREATE INDEX messages_thread ON messages (conversation_id, created_at DESC, id DESC);
CREATE INDEX messages_batch ON messages (batch_id, position) WHERE batch_id IS NOT NULL;
CREATE INDEX messages_job ON messages (job_id, status) WHERE job_id IS NOT NULL;
CREATE INDEX messages_mid ON messages (message_identifier) WHERE message_identifier IS NOT NULL;
CREATE INDEX messages_status ON messages (direction, status, created_at DESC);

CREATE TRIGGER messages_ai_conversation AFTER INSERT ON messages BEGIN
  UPDATE conversations
     SET unread_count = unread_count + (NEW.direction = 'in' AND NEW.read = 0),
         last_activity_at = max(last_activity_at, NEW.created_at),
         last_message_id = CASE WHEN NEW.created_at >= last_activity_at THEN NEW.id ELSE last_message_id END
   WHERE id = NEW.conversation_id;
END;
CREATE TRIGGER messages_au_read AFTER UPDATE OF read ON messages
  WHEN NEW.direction = 'in' AND OLD.read <> NEW.read BEGIN
  UPDATE conversations SET unread_count = unread_count + (CASE WHEN NEW.read = 0 THEN 1 ELSE -1 END)
   WHERE id = NEW.conversation_id;
END;
CREATE TRIGGER messages_ad_conversation AFTER DELETE ON messages
  WHEN OLD.direction = 'in' AND OLD.read = 0 BEGIN
  UPDATE conversations SET unread_count = unread_count - 1 WHERE id = OLD.conversation_id;
END;

CREATE TABLE contacts (
  id           INTEGER PRIMARY KEY,
  name         TEXT    NOT NULL,
  number       TEXT    NOT NULL UNIQUE,   -- normalised: duplicate detection
  number_typed TEXT    NOT NULL,          -- as the user typed or imported it
  email        TEXT    NOT NULL DEFAULT '',
  notes        TEXT    NOT NULL DEFAULT '',
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);
CREATE INDEX contacts_name ON contacts (name COLLATE NOCASE, id);

CREATE TABLE groups (
  id         INTEGER PRIMARY KEY,
  name       TEXT    NOT NULL UNIQUE COLLATE NOCASE,
  created_at INTEGER NOT NULL
);
CREATE TABLE group_members (
  group_id   INTEGER NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  contact_id INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, contact_id)
) WITHOUT ROWID;
CREATE INDEX group_members_contact ON group_members (contact_id);

CREATE TABLE templates (
  id         INTEGER PRIMARY KEY,
  name       TEXT    NOT NULL UNIQUE COLLATE NOCASE,
  text       TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Full-text search: external-content FTS5 tables (the text lives once, in messages/contacts),
-- kept in sync by triggers. unicode61 with diacritics removed: "cafe" finds "café".
CREATE VIRTUAL TABLE messages_fts USING fts5 (
  text, content = 'messages', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_ai_fts AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, text) VALUES (NEW.id, NEW.text);
END;
CREATE TRIGGER messages_ad_fts AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', OLD.id, OLD.text);
END;
CREATE TRIGGER messages_au_fts AFTER UPDATE OF text ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', OLD.id, OLD.text);
  INSERT INTO messages_fts (rowid, text) VALUES (NEW.id, NEW.text);
END;

CREATE VIRTUAL TABLE contacts_fts USING fts5 (
  name, number, email, content = 'contacts', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER contacts_ai_fts AFTER INSERT ON contacts BEGIN
  INSERT INTO contacts_fts (rowid, name, number, email) VALUES (NEW.id, NEW.name, NEW.number, NEW.email);
END;
CREATE TRIGGER contacts_ad_fts AFTER DELETE ON contacts BEGIN
  INSERT INTO contacts_fts (contacts_fts, rowid, name, number, email) VALUES ('delete', OLD.id, OLD.name, OLD.number, OLD.email);
END;
CREATE TRIGGER contacts_au_fts AFTER UPDATE OF name, number, email ON contacts BEGIN
  INSERT INTO contacts_fts (contacts_fts, rowid, name, number, email) VALUES ('delete', OLD.id, OLD.name, OLD.number, OLD.email);
  INSERT INTO contacts_fts (rowid, name, number, email) VALUES (NEW.id, NEW.name, NEW.number, NEW.email);
END;
