// App settings (preload/api.ts `Settings`): their defaults and JSON schema, kept in the preferences
// file (./preferences.ts), which checks every change against the schema. Earlier versions kept
// them in the SQLite table `settings` (migration 004); migrateSqliteSettings copies them over once
// and leaves that table as it was. Secrets (the PIN) are never stored here.
import { getCountries } from 'libphonenumber-js/min';
import type { Schema } from 'conf';
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { rowsAs } from './rows.ts';
import type { PreferencesStore } from './preferences.ts';
import type { Settings } from '../../preload/api.ts';

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  defaultCountry: 'GB',
  pollIntervalSeconds: 30,
  lowCreditThreshold: 5,
  pushReceiver: { enabled: false, port: null },
  notifications: true,
  theme: 'system',
});

export const POLL_INTERVAL_RANGE = [5, 3600] as const;

type Key = keyof Settings;
const KEYS = Object.keys(DEFAULT_SETTINGS) as Key[];

/** Every setting's rule and default (a JSON schema property each). */
export const SETTINGS_SCHEMA: Required<Schema<Settings>> = {
  // An ISO 3166 alpha-2 code that libphonenumber reads numbers of, such as "GB", or empty (none).
  defaultCountry: { type: 'string', enum: ['', ...getCountries()], default: DEFAULT_SETTINGS.defaultCountry },
  pollIntervalSeconds: {
    type: 'integer',
    minimum: POLL_INTERVAL_RANGE[0],
    maximum: POLL_INTERVAL_RANGE[1],
    default: DEFAULT_SETTINGS.pollIntervalSeconds,
  },
  lowCreditThreshold: { type: 'number', minimum: 0, default: DEFAULT_SETTINGS.lowCreditThreshold },
  pushReceiver: {
    type: 'object',
    properties: {
      enabled: { type: 'boolean' },
      port: { type: ['integer', 'null'], minimum: 0, maximum: 65535 },
    },
    required: ['enabled', 'port'],
    additionalProperties: false,
    default: DEFAULT_SETTINGS.pushReceiver,
  },
  notifications: { type: 'boolean', default: DEFAULT_SETTINGS.notifications },
  theme: { enum: ['system', 'light', 'dark'], default: DEFAULT_SETTINGS.theme },
};

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
    const others = Object.keys(changes).filter((k) => Object.hasOwn(PREFERENCE_ONLY, k));
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

/** Preferences that are not settings (settings.update must not reach them). */
const PREFERENCE_ONLY: Record<string, true> = { window: true, settingsFromSqlite: true };

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
