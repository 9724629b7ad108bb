-- Delivery receipts that arrive before the answer of their send is recorded (the push receiver
-- can be faster than the sending loop): kept here and applied when the MessageIdentifier is.
CREATE TABLE early_receipts (
  id                 INTEGER PRIMARY KEY,
  message_identifier TEXT    NOT NULL,
  report             TEXT    NOT NULL,
  receipt_at         INTEGER NOT NULL,
  received_at        INTEGER NOT NULL
);
CREATE INDEX early_receipts_mid ON early_receipts (message_identifier, id);
