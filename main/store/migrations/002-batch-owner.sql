-- Which process claimed a batch ('pid:instance-token'), so that start-up recovery in one process
-- (the web shell, say) never turns a batch that another live process on the same data folder
-- (a CLI send) is sending right now into 'unknown'.
ALTER TABLE outbox_batches ADD COLUMN owner TEXT;
