-- Issue 17: a delivery receipt whose push failed (the app's receiver down or restarting) is pushed
-- again with back-off for a bounded time, to the account's push URL of that moment.
ALTER TABLE delivery_receipts ADD COLUMN push_attempts INTEGER NOT NULL DEFAULT 0;
-- When the next push is due (ms since the epoch); NULL: pushed, given up, or never to be pushed.
ALTER TABLE delivery_receipts ADD COLUMN next_push_at INTEGER;
CREATE INDEX delivery_receipts_next_push ON delivery_receipts (next_push_at) WHERE next_push_at IS NOT NULL;
