-- Issue 15: a send moves each recipient's row from 'pending' to 'sending' to its answer, and every
-- move rewrote its entry in messages_status (direction, status, created_at): a third of the app's
-- time on a 100,000-recipient campaign. The index now keeps only rows past sending, which History
-- filters by (failed, unknown, …): a row enters it once, when it is answered. A filter on pending
-- or sending reads the table as the unfiltered list does. ConversationsRepo.history repeats the
-- condition so that SQLite may use the index.
DROP INDEX messages_status;
CREATE INDEX messages_status ON messages (direction, status, created_at DESC)
  WHERE status NOT IN ('pending', 'sending');
-- Marking read (one conversation, or all) finds the unread inbound rows here: the old status index
-- served "all read" before; this one holds only the unread, so both cost what is unread.
CREATE INDEX messages_unread ON messages (conversation_id) WHERE direction = 'in' AND read = 0;
