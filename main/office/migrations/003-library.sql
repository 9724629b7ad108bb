-- Issue 28: what the desks' contacts, groups (and their members), templates and keyword
-- auto-reply rules are, shared by every desk (main/office/share-library.ts, docs/OFFICE.md).
-- One row per record, named by its natural key within its scope and kind: a contact by its
-- normalised number, a group or a template by its name in lower case, a member by the group's
-- key and the contact's number (joined by a line feed), a rule by its keyword in upper case.
-- scope: 'office' (contacts, groups, members, templates: every desk of the office) or an account
-- ("user@https://gw", its auto-reply rules). data: the whole record as last written, null once
-- deleted (kept, so a desk following the feed learns of the deletion). rev: the office database's
-- order of writes (last writer wins); desks follow each scope's feed by rev. Writers take an
-- advisory lock, so revs commit in order and a desk's cursor never passes a row still to commit.
CREATE SEQUENCE library_rev;
CREATE TABLE library (
  scope text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('contact', 'group', 'member', 'template', 'rule')),
  key text NOT NULL,
  data jsonb,
  rev bigint NOT NULL,
  desk text NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, kind, key)
);
CREATE INDEX library_feed ON library (scope, rev);
