-- Issue 27 (after item 6): the Inbox search finds sends. A send to many keeps the recipients that
-- have no listed conversation in outbox_recipients (migration 055), which search does not read, so a
-- newsletter to numbers that never replied was found nowhere. Here each outbox job's text and label
-- (what a rich send is, in words: protocol/content-label.ts) is one full-text row, whatever the
-- number of its recipients: main/store/search.ts reads it as the search's "sends", scoped to the
-- account as History is (migration 020's outbox_jobs_account). A mail merge's job text is its
-- template. Kept by triggers like messages_fts (migration 028), and filled once for the jobs there are.
CREATE VIRTUAL TABLE outbox_jobs_fts USING fts5 (
  text, label, content = 'outbox_jobs', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER outbox_jobs_ai_fts AFTER INSERT ON outbox_jobs BEGIN
  INSERT INTO outbox_jobs_fts (rowid, text, label) VALUES (NEW.id, NEW.text, NEW.label);
END;
CREATE TRIGGER outbox_jobs_ad_fts AFTER DELETE ON outbox_jobs BEGIN
  INSERT INTO outbox_jobs_fts (outbox_jobs_fts, rowid, text, label) VALUES ('delete', OLD.id, OLD.text, OLD.label);
END;
CREATE TRIGGER outbox_jobs_au_fts AFTER UPDATE OF text, label ON outbox_jobs BEGIN
  INSERT INTO outbox_jobs_fts (outbox_jobs_fts, rowid, text, label) VALUES ('delete', OLD.id, OLD.text, OLD.label);
  INSERT INTO outbox_jobs_fts (rowid, text, label) VALUES (NEW.id, NEW.text, NEW.label);
END;
INSERT INTO outbox_jobs_fts (outbox_jobs_fts) VALUES ('rebuild');
