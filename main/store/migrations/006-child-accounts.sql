-- Child accounts an account created through this app (manageaccount, spec 4.4). The spec has no
-- list operation, so the app keeps its own list; never the child's PIN (shown to the user once).
CREATE TABLE child_accounts (
  account_id             TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  username               TEXT    NOT NULL,
  type                   TEXT    NOT NULL CHECK (type IN ('TRANSFER', 'SHARED')),
  email                  TEXT    NOT NULL,
  telephone_country_code TEXT    NOT NULL,
  mobile_number          TEXT    NOT NULL,
  given_name             TEXT,
  family_name            TEXT,
  company_name           TEXT,
  created_at             INTEGER NOT NULL,
  PRIMARY KEY (account_id, username)
);
