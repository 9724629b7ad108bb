-- 002-rich: content library, network simulator (PDUs, delivery receipts), inbound queue, app release.
-- Owned by gateway-rich. Money and accounts live in 001-core.sql; rows here refer to accounts by id.

-- The content library. owner_account_id NULL = public library (seeded), else the account's private file.
-- number is the library number the spec talks about (5 digits, in the range of its kind).
CREATE TABLE library_files (
  number INTEGER PRIMARY KEY CHECK (number BETWEEN 10000 AND 99999),
  kind TEXT NOT NULL CHECK (kind IN ('picture', 'group-graphic', 'operator-logo', 'ringtone', 'mms', 'wap')),
  owner_account_id INTEGER,
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  bytes BLOB NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX library_files_owner ON library_files (owner_account_id, kind);

-- Content as delivered to one handset (after content adaption), fetched by the handset from /content/<token>.
CREATE TABLE delivered_content (
  token TEXT PRIMARY KEY,
  message_identifier TEXT NOT NULL,
  content_type TEXT NOT NULL,
  bytes BLOB NOT NULL,
  adapted INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX delivered_content_message ON delivered_content (message_identifier);

-- Every SMS-SUBMIT PDU the simulated SMSC received, one row per part.
CREATE TABLE outbound_pdus (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  message_identifier TEXT NOT NULL,
  account_id INTEGER NOT NULL,
  recipient TEXT NOT NULL,
  part INTEGER NOT NULL,
  parts INTEGER NOT NULL,
  dcs INTEGER NOT NULL,
  pid INTEGER NOT NULL,
  udh BLOB NOT NULL,
  user_data BLOB NOT NULL,
  pdu BLOB NOT NULL,
  summary TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (message_identifier, part)
);
CREATE INDEX outbound_pdus_account ON outbound_pdus (account_id, id);

-- Delivery receipts. source 'network' = produced by the simulator (status pending until due_at, then
-- delivered, and pushed to the account's push URL); source 'soap' = received through SubmitDeliveryReceipt.
CREATE TABLE delivery_receipts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  message_identifier TEXT NOT NULL,
  account_id INTEGER,
  recipient TEXT NOT NULL,
  part INTEGER NOT NULL DEFAULT 1,
  report INTEGER NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('network', 'soap')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'claimed', 'delivered')),
  due_at INTEGER NOT NULL,
  timestamp TEXT,
  pushed_at TEXT,
  push_error TEXT
);
CREATE INDEX delivery_receipts_due ON delivery_receipts (status, due_at);
CREATE INDEX delivery_receipts_message ON delivery_receipts (message_identifier);

-- Mobile-originated messages waiting for CollectMessages (each collected once).
CREATE TABLE inbound_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  message_identifier TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL,
  send_to TEXT NOT NULL,
  reply_to TEXT NOT NULL,
  message TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  source TEXT NOT NULL,
  collected INTEGER NOT NULL DEFAULT 0,
  collected_at TEXT
);
CREATE INDEX inbound_messages_pending ON inbound_messages (account_id, collected, id);

-- The app release served by MobileMessengerVersion (one row).
CREATE TABLE app_release (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version TEXT NOT NULL,
  release_notice TEXT NOT NULL,
  download_url TEXT NOT NULL,
  release_date TEXT NOT NULL
);
