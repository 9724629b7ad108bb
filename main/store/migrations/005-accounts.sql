-- Gateway accounts the user signed in to (no PIN in clear: `pin_secret` holds only what the
-- Electron shell's safeStorage encrypted, or nothing), and which account a send went out on.
CREATE TABLE accounts (
  id            TEXT    PRIMARY KEY,
  label         TEXT    NOT NULL,
  username      TEXT    NOT NULL,
  primary_url   TEXT    NOT NULL,
  secondary_url TEXT,
  sandbox       INTEGER NOT NULL DEFAULT 0 CHECK (sandbox IN (0, 1)),
  pin_secret    BLOB,
  is_current    INTEGER NOT NULL DEFAULT 0 CHECK (is_current IN (0, 1)),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  UNIQUE (primary_url, username)
);
CREATE UNIQUE INDEX accounts_one_current ON accounts (is_current) WHERE is_current = 1;

ALTER TABLE outbox_jobs ADD COLUMN account_id TEXT REFERENCES accounts (id) ON DELETE SET NULL;
