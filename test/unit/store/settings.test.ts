import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openAppDb } from '../../../main/store/db.ts';
import { openAppStore } from '../../../main/store/app-store.ts';
import { openPreferences } from '../../../main/store/preferences.ts';
import { DEFAULT_SETTINGS, SettingsRepo } from '../../../main/store/settings.ts';
import { StoreError } from '../../../main/store/errors.ts';
import { tempDbFile } from './helpers.ts';

let dir: string;
let file: string;
let cleanup: () => void;
beforeEach(() => {
  const t = tempDbFile();
  cleanup = t.cleanup;
  file = t.file;
  dir = dirname(file);
});
afterEach(() => cleanup());

const settingsIn = (folder: string) => new SettingsRepo(openPreferences(folder));

describe('settings', () => {
  it('starts from the defaults (poll every 30 s) and keeps changes across reopen', () => {
    expect(settingsIn(dir).get()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.pollIntervalSeconds).toBe(30);
    settingsIn(dir).update({
      pollIntervalSeconds: 60,
      theme: 'dark',
      pushReceiver: { enabled: true, port: 0 },
    });
    expect(settingsIn(dir).get()).toMatchObject({
      pollIntervalSeconds: 60,
      theme: 'dark',
      pushReceiver: { enabled: true, port: 0 },
    });
  });

  it('refuses bad values and unknown keys with every reason (the schema), writing nothing', () => {
    const settings = settingsIn(dir);
    let error: unknown;
    try {
      settings.update({
        pollIntervalSeconds: 1,
        defaultCountry: 'XX',
        theme: 'pink' as 'dark',
        extra: 1,
      } as never);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('invalid-input');
    const message = (error as Error).message;
    for (const reason of [
      'pollIntervalSeconds must be a whole number from 5 to 3600',
      'defaultCountry must be an ISO 3166 alpha-2 code such as "GB" (or empty)',
      'theme must be system, light or dark',
      'unknown setting "extra"',
    ])
      expect(message).toContain(reason);
    // in words, never the schema's keywords
    expect(message).not.toMatch(/`|>=|allowed values/);
    expect(settings.get()).toEqual(DEFAULT_SETTINGS);
    expect(settingsIn(dir).get()).toEqual(DEFAULT_SETTINGS);
  });

  it.each([
    [{ pollIntervalSeconds: 3601 }, /pollIntervalSeconds/],
    [{ pollIntervalSeconds: 30.5 }, /pollIntervalSeconds/],
    [{ lowCreditThreshold: -1 }, /lowCreditThreshold/],
    [{ lowCreditThreshold: Number.NaN }, /lowCreditThreshold/],
    [{ pushReceiver: { enabled: true } }, /pushReceiver/],
    [{ pushReceiver: { enabled: true, port: 65536 } }, /pushReceiver/],
    [{ pushReceiver: { enabled: 'yes', port: null } }, /pushReceiver/],
    [{ notifications: 'on' }, /notifications/],
    [{ defaultCountry: 'gb' }, /defaultCountry/],
  ])('refuses %j', (changes, reason) => {
    const settings = settingsIn(dir);
    expect(() => settings.update(changes as never)).toThrow(reason);
    expect(settings.get()).toEqual(DEFAULT_SETTINGS);
  });

  it('takes a key given as undefined as no change (IPC keeps it, JSON drops it: both shells agree)', () => {
    const settings = settingsIn(dir);
    expect(settings.update({ theme: undefined, pollIntervalSeconds: 60 } as never)).toMatchObject({
      theme: DEFAULT_SETTINGS.theme,
      pollIntervalSeconds: 60,
    });
  });

  it('accepts the edges: no default country, port null or 0, a threshold of 0, 5 and 3600 s', () => {
    const settings = settingsIn(dir);
    settings.update({ defaultCountry: '', lowCreditThreshold: 0, pollIntervalSeconds: 5 });
    settings.update({ pushReceiver: { enabled: true, port: null }, pollIntervalSeconds: 3600 });
    expect(settings.get()).toMatchObject({
      defaultCountry: '',
      lowCreditThreshold: 0,
      pollIntervalSeconds: 3600,
      pushReceiver: { enabled: true, port: null },
    });
  });

  it('does not let settings.update reach the preferences that are not settings', () => {
    const settings = settingsIn(dir);
    expect(() => settings.update({ window: { width: 800, height: 600, maximized: false } } as never)).toThrow(
      /unknown setting "window"/,
    );
    expect(openPreferences(dir).get('window')).toBeUndefined();
  });
});

describe('the settings of an earlier version (SQLite)', () => {
  /** A database as an earlier version left it: settings in the SQLite table `settings`. */
  function legacy(rows: Record<string, string>): void {
    const app = openAppDb(file);
    const put = app.db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, 1)');
    for (const [key, value] of Object.entries(rows)) put.run(key, value);
    app.close();
  }
  const legacyRows = () => {
    const app = openAppDb(file);
    try {
      return app.db.prepare('SELECT key, value FROM settings ORDER BY key').all();
    } finally {
      app.close();
    }
  };

  it('are copied into the preferences once, without the values the schema refuses; the SQLite rows stay', () => {
    legacy({
      pollIntervalSeconds: '120',
      theme: '"dark"',
      pushReceiver: '{"enabled":true,"port":8123}',
      lowCreditThreshold: '-5', // refused by the schema: the default stays
      notifications: 'not json', // unreadable: the default stays
      retired: '1', // not a setting
    });
    const before = legacyRows();
    const store = openAppStore(file);
    expect(store.settings.get()).toEqual({
      ...DEFAULT_SETTINGS,
      pollIntervalSeconds: 120,
      theme: 'dark',
      pushReceiver: { enabled: true, port: 8123 },
    });
    store.settings.update({ pollIntervalSeconds: 45 });
    store.close();
    // The old rows as they were, and one row that marks the copy.
    const after = legacyRows() as Array<{ key: string }>;
    expect(after.filter((r) => r.key !== 'copiedToPreferences')).toEqual(before);
    expect(after.map((r) => r.key)).toContain('copiedToPreferences');

    // Reopened: nothing is copied again (the user's later change stays).
    const again = openAppStore(file);
    expect(again.settings.get()).toMatchObject({ pollIntervalSeconds: 45, theme: 'dark' });
    again.close();
  });

  it('a preferences file reset after the copy (unreadable) starts from the defaults, not the old values', () => {
    legacy({ pollIntervalSeconds: '120', theme: '"dark"' });
    openAppStore(file).close();
    writeFileSync(join(dir, 'preferences.json'), '{ not json');
    const store = openAppStore(file);
    expect(store.settings.get()).toEqual(DEFAULT_SETTINGS);
    store.close();
  });

  it('a new install (nothing in SQLite) starts from the defaults and is marked as migrated', () => {
    const store = openAppStore(file);
    expect(store.settings.get()).toEqual(DEFAULT_SETTINGS);
    expect(store.preferences.get('settingsFromSqlite')).toBe(true);
    store.close();
  });
});
