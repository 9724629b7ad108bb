// App settings (preload/api.ts `Settings`): defaults, validation of every change at the
// boundary, storage as one JSON value per key in the app database. Kept in SQLite rather than
// electron-store because the web shell runs in plain Node, where electron-store cannot load;
// secrets (the PIN) are never stored here.
import { isSupportedCountry } from 'libphonenumber-js/min';
import type { AppDb } from './db.ts';
import { StoreError } from './errors.ts';
import { rowsAs } from './rows.ts';
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

/** Check one setting's value; returns a readable problem or null. */
function problem(key: Key, value: unknown): string | null {
  switch (key) {
    case 'defaultCountry':
      return typeof value === 'string' && (value === '' || isSupportedCountry(value))
        ? null
        : 'defaultCountry must be an ISO 3166 alpha-2 code such as "GB" (or empty)';
    case 'pollIntervalSeconds':
      return Number.isInteger(value) &&
        (value as number) >= POLL_INTERVAL_RANGE[0] &&
        (value as number) <= POLL_INTERVAL_RANGE[1]
        ? null
        : `pollIntervalSeconds must be a whole number from ${POLL_INTERVAL_RANGE[0]} to ${POLL_INTERVAL_RANGE[1]}`;
    case 'lowCreditThreshold':
      return typeof value === 'number' && Number.isFinite(value) && value >= 0
        ? null
        : 'lowCreditThreshold must be a number, 0 or more';
    case 'pushReceiver': {
      const v = value as { enabled?: unknown; port?: unknown } | null;
      const portOk =
        v?.port === null ||
        (Number.isInteger(v?.port) && (v?.port as number) >= 0 && (v?.port as number) <= 65535);
      return typeof v === 'object' &&
        v !== null &&
        typeof v.enabled === 'boolean' &&
        portOk &&
        Object.keys(v).length === 2
        ? null
        : 'pushReceiver must be { enabled: boolean, port: 0-65535 or null }';
    }
    case 'notifications':
      return typeof value === 'boolean' ? null : 'notifications must be true or false';
    case 'theme':
      return value === 'system' || value === 'light' || value === 'dark'
        ? null
        : 'theme must be system, light or dark';
  }
}

export class SettingsRepo {
  readonly #app: AppDb;

  constructor(app: AppDb) {
    this.#app = app;
  }

  /** Every setting: stored values over the defaults (a stored value that no longer validates is ignored). */
  get(): Settings {
    const stored = new Map(
      rowsAs<{ key: string; value: string }>(
        this.#app.db.prepare('SELECT key, value FROM settings').all(),
      ).map((r) => [r.key, r.value]),
    );
    const out: Record<string, unknown> = structuredClone(DEFAULT_SETTINGS);
    for (const key of KEYS) {
      const raw = stored.get(key);
      if (raw === undefined) continue;
      try {
        const value: unknown = JSON.parse(raw);
        if (problem(key, value) === null) out[key] = value;
      } catch {
        // unreadable: the default stays
      }
    }
    return out as unknown as Settings;
  }

  /** Validate every change (unknown keys and bad values refused, nothing written) and store them. */
  update(changes: Partial<Settings>): Settings {
    const problems: string[] = [];
    for (const [key, value] of Object.entries(changes)) {
      if (!KEYS.includes(key as Key)) problems.push(`unknown setting "${key}"`);
      else {
        const p = problem(key as Key, value);
        if (p) problems.push(p);
      }
    }
    if (problems.length > 0) throw new StoreError('invalid-input', problems.join('; '));
    this.#app.transaction(() => {
      const put = this.#app.db.prepare(
        'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      );
      for (const [key, value] of Object.entries(changes)) put.run(key, JSON.stringify(value), Date.now());
    });
    return this.get();
  }
}
