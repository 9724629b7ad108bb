-- Issue 17: the push receiver keeps one address across restarts, so that a gateway's receipts for
-- an earlier run still arrive: the port and the (unguessable) path chosen once per account.
ALTER TABLE accounts ADD COLUMN push_port INTEGER;
ALTER TABLE accounts ADD COLUMN push_path TEXT;
