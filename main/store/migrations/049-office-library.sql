-- Issue 28, office mode: contacts, groups, their members, templates and keyword auto-reply rules
-- shared by the desks of an office (main/office/share-library.ts, docs/OFFICE.md). Which of them
-- changed here and is still to be written to the office database: one row per record, named by its
-- natural key (a contact by its normalised number, a group or template by its name in lower case,
-- a member by group and number, a rule by its keyword in upper case); a record changed again
-- before it was written moves to the end (a new seq). What is written is the record as it is then
-- (or its deletion when it is gone). Filled only in office mode, by TEMP triggers the office
-- module creates on its own connection: a desk of its own never writes here.
CREATE TABLE office_library_queue (
  seq INTEGER PRIMARY KEY,
  scope TEXT NOT NULL,        -- 'office', or 'a:' and the local account id (auto-reply rules)
  kind TEXT NOT NULL CHECK (kind IN ('contact', 'group', 'member', 'template', 'rule')),
  key TEXT NOT NULL,
  mode TEXT NOT NULL DEFAULT 'set' CHECK (mode IN ('set', 'join')),
  UNIQUE (scope, kind, key)
);

-- A membership from the office database whose group or contact this desk does not hold yet (the
-- office keeps each record's latest write only, so a contact edited after it joined a group comes
-- later in the feed than that membership): kept here and made once both are here.
CREATE TABLE office_library_waiting (
  group_key TEXT NOT NULL,
  number TEXT NOT NULL,
  PRIMARY KEY (group_key, number)
) WITHOUT ROWID;
