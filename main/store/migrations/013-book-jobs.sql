-- Issue 16: a batch may carry fields that reach recipients the journal does not list one by one —
-- a server address book (SendToAddressBook, one book per batch) and the Cc/Bcc numbers and address
-- books of a rich send (first batch only) — never expanded into numbers, so a resend or a continue
-- can never send them again. `extra_fields`: those form fields as JSON; `reach`: how many they reach
-- as QueryAddressBook counted when the send was journaled (NULL: not sized); `extra_*`: what the
-- gateway answered for them (its records beyond the batch's own numbers).
ALTER TABLE outbox_batches ADD COLUMN extra_fields TEXT;
ALTER TABLE outbox_batches ADD COLUMN reach INTEGER;
ALTER TABLE outbox_batches ADD COLUMN extra_answered INTEGER;
ALTER TABLE outbox_batches ADD COLUMN extra_accepted INTEGER;
ALTER TABLE outbox_batches ADD COLUMN extra_rejected INTEGER;
