-- Issue 15: the sending loop requests a batch while it is still storing the previous batch's
-- results. The gateway's answer to a batch is held here (its recipients' results as JSON), in the
-- same transaction that claims the next batch, before that request goes out; it is cleared when
-- the results are stored. After a crash in between, recovery stores the held answer instead of
-- turning an answered batch into 'unknown'.
ALTER TABLE outbox_batches ADD COLUMN answer TEXT;
