-- 003-network-queue: accepted messages waiting for the simulated network (gateway-perf).
-- A send request commits its message rows, the credit reservation and ONE queue entry (the range
-- of message ids it inserted) in one transaction, then answers. The network dispatcher drains the
-- queue in the background: it claims entries, encodes the PDUs, stores them with their pending
-- receipts and deletes the entries, all in one BEGIN IMMEDIATE transaction, so every message is
-- handed to the network exactly once, after a crash or restart and with two instances on one data
-- directory. Only messages of the range whose status is still 'dispatched' are sent.
CREATE TABLE network_queue (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  first_message_id INTEGER NOT NULL,
  last_message_id INTEGER NOT NULL,
  enqueued_at INTEGER NOT NULL -- epoch milliseconds
);
