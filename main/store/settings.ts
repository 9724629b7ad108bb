// App settings (preload/api.ts `Settings`) over the preferences file (./preferences.ts, which holds
// their defaults and JSON schema and checks every change against it). Earlier versions kept them in
// the SQLite table `settings` (migration 004); migrateSqliteSettings copies them over once and
// leaves that table as it was. Secrets (the PIN) are never stored here.
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { rowsAs } from './rows.ts';
import { DEFAULT_SETTINGS, PREFERENCES_SCHEMA } from './preferences.ts';
import type { PreferencesStore } from './preferences.ts';
import type { Settings } from '../../preload/api.ts';

export { DEFAULT_SETTINGS, POLL_INTERVAL_RANGE, SETTINGS_SCHEMA } from './preferences.ts';

type Key = keyof Settings;
const KEYS = Object.keys(DEFAULT_SETTINGS) as Key[];
/** Preferences that are not settings (the window's): settings.update does not reach them. */
const NOT_SETTINGS = new Set(Object.keys(PREFERENCES_SCHEMA).filter((k) => !KEYS.includes(k as Key)));

export class SettingsRepo {
  readonly #preferences: PreferencesStore;

  constructor(preferences: PreferencesStore) {
    this.#preferences = preferences;
  }

  /** Every setting (the schema's defaults where none was chosen). */
  get(): Settings {
    const store = this.#preferences.store;
    return Object.fromEntries(KEYS.map((key) => [key, structuredClone(store[key])])) as unknown as Settings;
  }

  /**
   * Store the changes, or none of them: the schema refuses a bad value or an unknown key (with
   * every reason); a preference that is not a setting (the window's) is refused here.
   */
  update(changes: Partial<Settings>): Settings {
    const others = Object.keys(changes).filter((k) => NOT_SETTINGS.has(k));
    if (others.length > 0) {
      throw new StoreError('invalid-input', others.map((k) => `unknown setting "${k}"`).join('; '));
    }
    try {
      this.#preferences.set(changes as Settings);
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err))
        .replace(/^Config schema violation: /, '')
        .replaceAll(/`(\w+)` must NOT have additional properties/g, 'unknown setting "$1"');
      throw new StoreError('invalid-input', message);
    }
    return this.get();
  }
}

/**
 * Copy the settings an earlier version kept in SQLite into the preferences, once (marked in the
 * preferences: a crash before the mark copies them again, which changes nothing). A stored value
 * the schema refuses is left out, as that version ignored it; the SQLite table is not changed.
 */
export function migrateSqliteSettings(app: AppDb, preferences: PreferencesStore): void {
  if (preferences.get('settingsFromSqlite') === true) return;
  const rows = rowsAs<{ key: string; value: string }>(
    app.db.prepare('SELECT key, value FROM settings').all(),
  );
  for (const { key, value } of rows) {
    if (!KEYS.includes(key as Key)) continue;
    try {
      preferences.set(key as Key, JSON.parse(value) as never);
    } catch {
      // unreadable or refused by the schema: the default stays
    }
  }
  preferences.set('settingsFromSqlite', true);
}
