-- Library numbers a gateway returned as LibraryNumber to this app (spec 2.5), per account, so the
-- media picker can offer them again (a gateway has no call that lists an account's library).
CREATE TABLE library_numbers (
  account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  number     INTEGER NOT NULL,
  kind       TEXT    NOT NULL,
  name       TEXT    NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, number)
);
