-- 001-core: accounts, credit and tariffs, ReplyTo lists, address books, outbound messages,
-- scheduled jobs, request log. Owned by gateway-core.
-- Money is an INTEGER of ten-thousandths of GBP (the spec's four decimal places) everywhere.

CREATE TABLE accounts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL UNIQUE,
  -- scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>; the PIN itself is never stored.
  pin_hash TEXT NOT NULL,
  parent_id INTEGER REFERENCES accounts (id) ON DELETE CASCADE,
  child_type TEXT CHECK (child_type IN ('TRANSFER', 'SHARED')),
  -- 1 = the account holds the restricted-service permission needed by manageaccount (spec 4.4, 5.5).
  restricted INTEGER NOT NULL DEFAULT 0,
  -- The account's own two-way number: inbound messages to it are queued for the account.
  number TEXT UNIQUE,
  push_url TEXT,
  credit INTEGER NOT NULL DEFAULT 0 CHECK (credit >= 0),
  currency TEXT NOT NULL DEFAULT 'GBP',
  email TEXT,
  telephone_country_code TEXT,
  mobile_number TEXT,
  given_name TEXT,
  family_name TEXT,
  company_name TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK ((parent_id IS NULL) = (child_type IS NULL))
);

-- Price of one SMS part per delivery class. AvailableMessages = credit / Premier price.
CREATE TABLE tariffs (
  delivery_option TEXT PRIMARY KEY CHECK (delivery_option IN ('Default', 'Premier', 'LeastCost', 'Economy')),
  price INTEGER NOT NULL CHECK (price > 0)
);
INSERT INTO tariffs (delivery_option, price) VALUES
  ('Premier', 500), ('Default', 400), ('LeastCost', 300), ('Economy', 250);

-- Permitted ReplyTo values besides the service default (which is always permitted and not stored).
CREATE TABLE reply_to (
  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  value TEXT NOT NULL,
  PRIMARY KEY (account_id, value)
);

CREATE TABLE address_books (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  UNIQUE (account_id, name)
);
CREATE TABLE address_book_groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  book_id INTEGER NOT NULL REFERENCES address_books (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  UNIQUE (book_id, name)
);
CREATE TABLE address_book_members (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  book_id INTEGER NOT NULL REFERENCES address_books (id) ON DELETE CASCADE,
  number TEXT NOT NULL,
  name TEXT,
  UNIQUE (book_id, number)
);
CREATE TABLE address_book_group_members (
  group_id INTEGER NOT NULL REFERENCES address_book_groups (id) ON DELETE CASCADE,
  member_id INTEGER NOT NULL REFERENCES address_book_members (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, member_id)
);

-- One row per recipient of an outbound request.
-- status: scheduled (waiting for its job) -> dispatched (handed to the network) -> delivered | failed;
-- rejected = this recipient was refused (report != accepted); nothing was charged for it.
CREATE TABLE messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  message_identifier TEXT NOT NULL UNIQUE CHECK (length(message_identifier) <= 15),
  account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  charged_account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  request_id TEXT NOT NULL,
  recipient TEXT NOT NULL,
  reply_to TEXT,
  delivery_option TEXT NOT NULL DEFAULT 'Default',
  content TEXT NOT NULL,
  parts INTEGER NOT NULL DEFAULT 1,
  cost INTEGER NOT NULL DEFAULT 0,
  report TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('scheduled', 'dispatched', 'delivered', 'failed', 'rejected', 'cancelled')),
  library_number TEXT,
  scheduled_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  dispatched_at TEXT
);
CREATE INDEX messages_account ON messages (account_id, id);

-- Messages waiting for SendTimeDelay / SendTimeAbsolute. A job is claimed and its message marked
-- dispatched in one transaction, so with two instances on one data dir it is sent exactly once.
CREATE TABLE scheduled_jobs (
  message_id INTEGER PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
  due_at INTEGER NOT NULL, -- epoch milliseconds
  claimed_by TEXT,
  claimed_at TEXT
);
CREATE INDEX scheduled_jobs_due ON scheduled_jobs (claimed_by, due_at);

-- One row per protocol request (never a PIN).
CREATE TABLE request_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  instance TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  username TEXT,
  report TEXT,
  status INTEGER NOT NULL,
  duration_ms REAL NOT NULL
);
