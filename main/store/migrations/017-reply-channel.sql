-- Issue 25: a reply's identity is its place in what the app received (016), so two identical
-- replies are two. One message can still reach the app twice: pushed (DeliverMessage) while a poll
-- collects it (the reference gateway marks a pushed message collected only once the push is
-- answered). Each inbound row keeps how it came (`via`) and the hash of (from, to, timestamp, text)
-- (`content_key`): a message that came one way is not stored again when it comes the other way
-- (main/store/conversations.ts storeInbound pairs them: the row that both ways brought is 'both').
ALTER TABLE messages ADD COLUMN via TEXT CHECK (via IN ('collect', 'push', 'both'));
ALTER TABLE messages ADD COLUMN content_key TEXT;
CREATE INDEX messages_content ON messages (content_key, via) WHERE content_key IS NOT NULL;
