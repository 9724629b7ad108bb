// The preferences file (main/store/preferences.ts) under plain Node with conf, the backend the web
// shell and the CLI use; the Electron shell opens the same file with electron-store (conf's
// subclass, same options).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import {
  PREFERENCES_NAME,
  PREFERENCES_VERSION,
  confBackend,
  openPreferences,
} from '../../../main/store/preferences.ts';
import type { PreferencesBackend } from '../../../main/store/preferences.ts';
import { DEFAULT_SETTINGS } from '../../../main/store/settings.ts';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'messenger-prefs-'));
  file = join(dir, `${PREFERENCES_NAME}.json`);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('preferences', () => {
  it('is one JSON file in the data folder with the defaults and the version of its shape', () => {
    const prefs = openPreferences(dir);
    expect(prefs.path).toBe(file);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({
      ...DEFAULT_SETTINGS,
      __internal__: { migrations: { version: PREFERENCES_VERSION } },
    });
  });

  it('keeps the window state across reopen, and the schema refuses a bad one', () => {
    openPreferences(dir).set('window', { x: -20, y: 40, width: 1000, height: 700, maximized: true });
    const prefs = openPreferences(dir);
    expect(prefs.get('window')).toEqual({ x: -20, y: 40, width: 1000, height: 700, maximized: true });
    expect(() => prefs.set('window', { width: 0, height: 700, maximized: false })).toThrow(/window/);
    expect(() => prefs.set('window', { width: 800, height: 600 } as never)).toThrow(/maximized/);
    expect(() => prefs.set('theme', 'pink' as never)).toThrow(/theme/);
    expect(() => prefs.set('unknown' as never, 1 as never)).toThrow(/additional properties/);
    expect(openPreferences(dir).get('window')).toMatchObject({ width: 1000 });
  });

  it('sees what another instance on the same file wrote (the web shell and a CLI share a folder)', () => {
    const a = openPreferences(dir);
    const b = openPreferences(dir);
    a.set('theme', 'light');
    expect(b.get('theme')).toBe('light');
  });

  it.each([
    ['a value the schema refuses', JSON.stringify({ ...DEFAULT_SETTINGS, pollIntervalSeconds: 2 })],
    ['text that is not JSON', '{ "theme": "dark", '],
  ])('keeps a file with %s aside as preferences.json.invalid and starts from the defaults', (_, text) => {
    writeFileSync(file, text);
    const prefs = openPreferences(dir);
    expect(prefs.get('pollIntervalSeconds')).toBe(DEFAULT_SETTINGS.pollIntervalSeconds);
    expect(readFileSync(`${file}.invalid`, 'utf8')).toBe(text);
  });

  it('hands the backend the schema, the version and the migrations, and the file name apart', () => {
    const seen: Array<{ name: string; keys: string[] }> = [];
    const backend: PreferencesBackend = (options, name) => {
      seen.push({ name, keys: Object.keys(options).sort() });
      return confBackend(options, name);
    };
    openPreferences(dir, backend);
    expect(seen).toEqual([
      {
        name: PREFERENCES_NAME,
        keys: [
          'clearInvalidConfig',
          'configFileMode',
          'cwd',
          'migrations',
          'projectVersion',
          'rootSchema',
          'schema',
        ],
      },
    ]);
    expect(existsSync(file)).toBe(true);
  });
});
