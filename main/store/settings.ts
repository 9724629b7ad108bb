// App settings (domain/account.ts `Settings`) over the preferences file (./preferences.ts, which holds
// their defaults and JSON schema and checks every change against it). Earlier versions kept them in
// the SQLite table `settings` (migration 004); migrateSqliteSettings copies them over once and
// leaves their rows as they were (adding one row that marks the copy). Secrets (the PIN) are never stored here.
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { rowsAs } from './rows.ts';
import { DEFAULT_SETTINGS, PREFERENCES_SCHEMA } from './preferences.ts';
import type { PreferencesStore } from './preferences.ts';
import type { Settings } from '../../domain/index.ts';

export { DEFAULT_SETTINGS, POLL_INTERVAL_RANGE, SETTINGS_SCHEMA } from './preferences.ts';
import { POLL_INTERVAL_RANGE } from './preferences.ts';

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
    // A key given as undefined is no change (JSON, and so the web shell, drops it; IPC keeps it).
    const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    try {
      this.#preferences.set(given as Partial<Settings> as Settings);
    } catch (err) {
      throw new StoreError(
        'invalid-input',
        readableProblems(err instanceof Error ? err.message : String(err)),
      );
    }
    return this.get();
  }
}

/** What each setting takes, in words (the schema's own messages name JSON-schema keywords). */
const RULES: Record<Key, string> = {
  defaultCountry: 'defaultCountry must be an ISO 3166 alpha-2 code such as "GB" (or empty)',
  pollIntervalSeconds: `pollIntervalSeconds must be a whole number from ${POLL_INTERVAL_RANGE[0]} to ${POLL_INTERVAL_RANGE[1]}`,
  lowCreditThreshold: 'lowCreditThreshold must be a number, 0 or more',
  pushReceiver: 'pushReceiver must be { enabled: boolean, port: 0-65535 or null }',
  notifications: 'notifications must be true or false',
  theme: 'theme must be system, light or dark',
  childAccounts: 'childAccounts must be true or false',
  enterSends: 'enterSends must be true or false',
  confirmAboveRecipients: 'confirmAboveRecipients must be a whole number, 0 or more',
  optOutKeywords: 'optOutKeywords must be a list of up to 50 words without spaces',
  optInKeywords: 'optInKeywords must be a list of up to 50 words without spaces',
  autoReplyDailyCap: 'autoReplyDailyCap must be a whole number, 0 or more',
  csvBom: 'csvBom must be true or false',
  soapTypesNamespace: 'soapTypesNamespace must be an absolute URI (or empty: learnt from the gateway)',
  deliveryRates:
    'Message prices (deliveryRates): each must be above 0 with at most four decimals, such as 0.04 (or empty)',
};

/** The schema violation's message as one sentence per setting it names. */
function readableProblems(message: string): string {
  const out: string[] = [];
  for (const part of message.replace(/^Config schema violation: /, '').split(/;\s*/)) {
    // conf names the offending key (or path) in backquotes: "`theme` must be …", "`pushReceiver/port` …",
    // "`extra` must NOT have additional properties"
    const key = /`(\w+)/.exec(part)?.[1];
    const sentence =
      key === undefined ? part : KEYS.includes(key as Key) ? RULES[key as Key] : `unknown setting "${key}"`;
    if (!out.includes(sentence)) out.push(sentence);
  }
  return out.join('; ');
}

/**
 * Copy the settings an earlier version kept in SQLite into the preferences, once (marked in the
 * preferences: a crash before the mark copies them again, which changes nothing). A stored value
 * the schema refuses is left out, as that version ignored it; the old rows stay, and one row marks
 * the copy (so a preferences file reset later does not bring the old values back).
 */
export function migrateSqliteSettings(app: AppDb, preferences: PreferencesStore): void {
  if (preferences.get('settingsFromSqlite') === true) return;
  const rows = rowsAs<{ key: string; value: string }>(
    app.db.prepare('SELECT key, value FROM settings').all(),
  );
  // Copied before, and the preferences file was reset since (it was unreadable or refused): the
  // defaults stand, the old values are not brought back. The mark is a row earlier versions ignore.
  if (rows.some((r) => r.key === COPIED_MARK)) {
    preferences.set('settingsFromSqlite', true);
    return;
  }
  for (const { key, value } of rows) {
    if (!KEYS.includes(key as Key)) continue;
    try {
      preferences.set(key as Key, JSON.parse(value) as never);
    } catch {
      // unreadable or refused by the schema: the default stays
    }
  }
  app.db
    .prepare('INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES (?, ?, ?)')
    .run(COPIED_MARK, 'true', Date.now());
  preferences.set('settingsFromSqlite', true);
}

/** The row that says the SQLite settings were copied into the preferences (not a setting). */
const COPIED_MARK = 'copiedToPreferences';
