// The gateway's storage: one node:sqlite file per data directory, set up and migrated by the SQLite
// module the app shares (storage/sqlite.ts). A primary and a secondary instance may open the
// same directory at once: WAL lets readers and one writer work side by side, busy_timeout makes a
// writer wait for the other instead of failing, and migrations run under BEGIN IMMEDIATE so two
// instances starting together apply each version exactly once. Migrations are the files
// gateway/store/migrations/NNN-name.sql.
import type { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqlite } from '../../storage/sqlite.ts';

export { stmt, transaction } from '../../storage/sqlite.ts';

export const DB_FILE_NAME = 'gateway.sqlite';
// Rewritten for the Electron bundle by scripts/bundle-migrations.ts: keep this exact expression.
const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export function openGatewayDb(dataDir: string, migrationsDir: string = MIGRATIONS_DIR): DatabaseSync {
  return openSqlite(join(dataDir, DB_FILE_NAME), {
    migrationsDir,
    times: 'iso-8601',
    product: 'the gateway',
  });
}
