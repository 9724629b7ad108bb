// The app's preferences: the settings of domain/account.ts (their repository: ./settings.ts) and the
// Electron shell's window state, in one JSON file `preferences.json` in the user data folder, kept
// by `conf`: the JSON schema below checks every write (and the file when it is opened), its
// `default`s fill in what the file does not hold, and its migrations move an older file's shape
// forward. Messages, contacts, accounts and the outbox journal stay in SQLite (./app-store.ts).
//
// One interface, two backends: `conf` (plain Node: the web shell, the CLI, tests) and, in the
// Electron shell, electron-store (conf's subclass for Electron, same API and file), which only
// main/electron/ may import; it passes a PreferencesBackend to openPreferences. No secret is kept
// here (the PIN: ./accounts.ts).
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { getCountries } from 'libphonenumber-js/min';
import type { Options, Schema } from 'conf';
import type { Settings } from '../../domain/index.ts';
import { DELIVERY_OPTIONS } from '../../protocol/limits.ts';

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  defaultCountry: 'GB',
  pollIntervalSeconds: 30,
  lowCreditThreshold: 5,
  pushReceiver: { enabled: false, port: null },
  notifications: true,
  theme: 'system',
  childAccounts: false,
  soapTypesNamespace: '',
  enterSends: true,
  confirmAboveRecipients: 50,
  optOutKeywords: ['STOP', 'UNSUBSCRIBE'],
  optInKeywords: ['START'],
  autoReplyDailyCap: 200,
  deliveryRates: { Default: '', Premier: '', LeastCost: '', Economy: '' },
  csvBom: false,
});

/** Issue 26: a message price in the account's currency: above 0, at most four decimals; '' = not set. */
export const RATE_PATTERN = '^$|^(?!0*(\\.0*)?$)\\d{1,6}(\\.\\d{1,4})?$';

export const POLL_INTERVAL_RANGE = [5, 3600] as const;

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
  childAccounts: { type: 'boolean', default: DEFAULT_SETTINGS.childAccounts },
  // an absolute URI (scheme:rest), or '' to read it from the gateway's WSDL
  soapTypesNamespace: {
    type: 'string',
    maxLength: 500,
    pattern: '^$|^[A-Za-z][A-Za-z0-9+.-]*:\\S+$',
    default: DEFAULT_SETTINGS.soapTypesNamespace,
  },
  enterSends: { type: 'boolean', default: DEFAULT_SETTINGS.enterSends },
  confirmAboveRecipients: {
    type: 'integer',
    minimum: 0,
    default: DEFAULT_SETTINGS.confirmAboveRecipients,
  },
  optOutKeywords: {
    type: 'array',
    items: { type: 'string', minLength: 1, pattern: '^\\S+$' },
    maxItems: 50,
    default: DEFAULT_SETTINGS.optOutKeywords,
  },
  optInKeywords: {
    type: 'array',
    items: { type: 'string', minLength: 1, pattern: '^\\S+$' },
    maxItems: 50,
    default: DEFAULT_SETTINGS.optInKeywords,
  },
  autoReplyDailyCap: { type: 'integer', minimum: 0, default: DEFAULT_SETTINGS.autoReplyDailyCap },
  deliveryRates: {
    type: 'object',
    properties: Object.fromEntries(
      DELIVERY_OPTIONS.map((o) => [o, { type: 'string', pattern: RATE_PATTERN }]),
    ),
    required: [...DELIVERY_OPTIONS],
    additionalProperties: false,
    default: DEFAULT_SETTINGS.deliveryRates,
  },
  csvBom: { type: 'boolean', default: DEFAULT_SETTINGS.csvBom },
};

/** Where and how big the main window was when it last closed (the Electron shell). */
export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface Preferences extends Settings {
  window?: WindowState;
  /** Set once the settings an earlier version kept in SQLite were copied here (./settings.ts). */
  settingsFromSqlite?: boolean;
}

/** The store: conf's API (electron-store is a Conf). */
export type PreferencesStore = Conf<Preferences>;

/** What a backend is given: conf's options but the file's name, which is `name`. */
export type PreferencesOptions = Omit<
  Options<Preferences>,
  'configName' | 'projectName' | 'projectSuffix'
> & {
  cwd: string;
};

/** Opens the store over the file `name`.json of `options.cwd`. */
export type PreferencesBackend = (options: PreferencesOptions, name: string) => PreferencesStore;

export const PREFERENCES_NAME = 'preferences';

/**
 * The version of the file's shape, recorded in the file. A change of shape (a key renamed, a
 * value's unit changed, a default that should reach existing files) raises it and adds a step to
 * PREFERENCES_MIGRATIONS under the new version; conf runs each step once per file.
 */
export const PREFERENCES_VERSION = '1.0.0';
export const PREFERENCES_MIGRATIONS: NonNullable<PreferencesOptions['migrations']> = {};

const WINDOW_SCHEMA = {
  type: 'object',
  properties: {
    x: { type: 'integer' },
    y: { type: 'integer' },
    width: { type: 'integer', minimum: 1 },
    height: { type: 'integer', minimum: 1 },
    maximized: { type: 'boolean' },
  },
  required: ['width', 'height', 'maximized'],
  additionalProperties: false,
} as const;

export const PREFERENCES_SCHEMA: Schema<Preferences> = {
  ...SETTINGS_SCHEMA,
  window: WINDOW_SCHEMA,
  settingsFromSqlite: { type: 'boolean' },
};

/** The plain-Node backend. */
export const confBackend: PreferencesBackend = (options, name) =>
  new Conf<Preferences>({ ...options, configName: name });

/**
 * Open the preferences of the data folder `dir`. A file that is not JSON or that the schema
 * refuses (edited by hand) is not thrown away: it is renamed preferences.json.invalid (the last
 * one kept) and the preferences start again from the defaults.
 */
export function openPreferences(dir: string, backend: PreferencesBackend = confBackend): PreferencesStore {
  const options: PreferencesOptions = {
    cwd: dir,
    schema: PREFERENCES_SCHEMA,
    rootSchema: { additionalProperties: false },
    projectVersion: PREFERENCES_VERSION,
    migrations: PREFERENCES_MIGRATIONS,
    clearInvalidConfig: false,
    configFileMode: 0o600, // issue 17: other local users cannot read it
  };
  try {
    return backend(options, PREFERENCES_NAME);
  } catch (err) {
    const file = join(dir, `${PREFERENCES_NAME}.json`);
    if (!unreadable(err) || !existsSync(file)) throw err;
    renameSync(file, `${file}.invalid`);
    return backend(options, PREFERENCES_NAME);
  }
}

/** conf's errors for a file it cannot read as a store of this schema. */
function unreadable(err: unknown): boolean {
  return (
    err instanceof Error && (err.name === 'SyntaxError' || err.message.startsWith('Config schema violation'))
  );
}
