-- The office database (docs/OFFICE.md): what the desks of one office share. An account is
-- named by its gateway and username ("demo@https://gw.example"), never by a desk's local id; no
-- PIN or password is ever stored here.

-- This database's identity: a desk's cursors belong to one office database.
CREATE TABLE office (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), created_at timestamptz NOT NULL DEFAULT now());
INSERT INTO office DEFAULT VALUES;

-- The desks that have connected, by the random id each keeps in its own data folder.
CREATE TABLE desks (
  id text PRIMARY KEY,
  name text NOT NULL,
  first_seen timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now()
);

-- One collector per account: the desk holding the lease (renewed while it runs) calls
-- CollectMessages; a lease past expires_at is free to take (main/office/lease.ts).
CREATE TABLE collector_leases (
  account text PRIMARY KEY,
  desk text NOT NULL,
  expires_at timestamptz NOT NULL
);

-- Every reply collected, once (uid: the collecting desk's id and its local message id).
-- Written under an advisory lock so that ids commit in order and a desk's cursor (the highest
-- id it imported) never passes a row still to commit.
CREATE TABLE inbound (
  id bigserial PRIMARY KEY,
  account text NOT NULL,
  uid text NOT NULL,
  sender text NOT NULL,
  recipient text NOT NULL,
  body text NOT NULL,
  kind text NOT NULL,
  gateway_timestamp text NOT NULL,
  received_at bigint NOT NULL,
  desk text NOT NULL,
  UNIQUE (account, uid)
);
CREATE INDEX inbound_feed ON inbound (account, id);

-- The opt-out list: each change in order (the feed desks follow), and the list it makes.
CREATE TABLE opt_out_changes (
  id bigserial PRIMARY KEY,
  account text NOT NULL,
  uid text NOT NULL UNIQUE,
  number text NOT NULL,
  action text NOT NULL CHECK (action IN ('add', 'remove')),
  source text NOT NULL CHECK (source IN ('keyword', 'manual')),
  keyword text,
  at bigint NOT NULL,
  desk text NOT NULL
);
CREATE INDEX opt_out_changes_feed ON opt_out_changes (account, id);

CREATE TABLE opt_outs (
  account text NOT NULL,
  number text NOT NULL,
  source text NOT NULL,
  keyword text,
  created_at bigint NOT NULL,
  PRIMARY KEY (account, number)
);
