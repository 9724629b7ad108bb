-- Issue 26: what a rich message is, in words ("Ringtone: Nokia tune", "Contact card: Alice Smith"),
-- made once by protocol/content-label.ts when the send is journaled and shown by threads,
-- conversation previews and search. NULL for plain text, and for rows journaled before this
-- migration (the reader then names the kind alone).
ALTER TABLE messages ADD COLUMN label TEXT;

-- Search finds a message by its label too ("nokia" finds the ringtone sent as "Nokia tune"): the
-- full-text index gets a second column, kept by the same three triggers, and is rebuilt once.
DROP TRIGGER messages_ai_fts;
DROP TRIGGER messages_ad_fts;
DROP TRIGGER messages_au_fts;
DROP TABLE messages_fts;
CREATE VIRTUAL TABLE messages_fts USING fts5 (
  text, label, content = 'messages', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_ai_fts AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, text, label) VALUES (NEW.id, NEW.text, NEW.label);
END;
CREATE TRIGGER messages_ad_fts AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text, label) VALUES ('delete', OLD.id, OLD.text, OLD.label);
END;
CREATE TRIGGER messages_au_fts AFTER UPDATE OF text, label ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text, label) VALUES ('delete', OLD.id, OLD.text, OLD.label);
  INSERT INTO messages_fts (rowid, text, label) VALUES (NEW.id, NEW.text, NEW.label);
END;
INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
