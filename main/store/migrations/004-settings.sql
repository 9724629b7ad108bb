-- App settings as JSON values by key, in the same file as the data they govern: both shells
-- (Electron and the plain-Node web shell) read them, so they cannot depend on Electron.
CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value      TEXT    NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
