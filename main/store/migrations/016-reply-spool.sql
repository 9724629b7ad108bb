-- Issue 25: a reply is on disk before it is parsed. The raw bytes of each answer the app receives
-- (a CollectMessages answer, chunk by chunk as it is read; a DeliverMessage push, whole) are
-- written here, in a transaction committed with synchronous = FULL (the WAL fsynced), before
-- anything else is done with them; the messages parsed from them are stored with the identity
-- "a:<answer>:<position>" (messages.dedupe_key), and the entry is deleted once all of them are.
-- An entry left by a run that is no longer alive (kill -9, a full disk) is parsed and stored at
-- the next start; re-reading it stores nothing twice (the same identities).
CREATE TABLE reply_spool (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  answer      TEXT    NOT NULL UNIQUE,   -- random id of the answer: the identity of its messages
  source      TEXT    NOT NULL CHECK (source IN ('collect', 'push')),
  username    TEXT    NOT NULL,          -- the account it was received for
  owner       TEXT    NOT NULL,          -- the run receiving it (main/store/run-lock.ts)
  received_at INTEGER NOT NULL
);
CREATE TABLE reply_spool_chunks (
  spool_id INTEGER NOT NULL REFERENCES reply_spool (id) ON DELETE CASCADE,
  seq      INTEGER NOT NULL,
  bytes    BLOB    NOT NULL,
  PRIMARY KEY (spool_id, seq)
) WITHOUT ROWID;
