-- issue 13: the inbox lists conversations by most recent activity (unread is shown, it no longer
-- reorders the list), and a conversation can be archived: hidden from the list until the next
-- inbound message brings it back (the trigger below) or the user unarchives it.
ALTER TABLE conversations ADD COLUMN archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1));
DROP INDEX conversations_inbox;
CREATE INDEX conversations_recent ON conversations (archived, last_activity_at DESC, id DESC);

CREATE TRIGGER messages_ai_unarchive AFTER INSERT ON messages
  WHEN NEW.direction = 'in' BEGIN
  UPDATE conversations SET archived = 0 WHERE id = NEW.conversation_id AND archived = 1;
END;
