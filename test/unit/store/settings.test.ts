import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAppDb } from '../../../main/store/db.ts';
import type { AppDb } from '../../../main/store/db.ts';
import { DEFAULT_SETTINGS, SettingsRepo } from '../../../main/store/settings.ts';
import { tempDbFile } from './helpers.ts';

let app: AppDb;
let file: string;
let cleanup: () => void;
beforeEach(() => {
  const t = tempDbFile();
  cleanup = t.cleanup;
  file = t.file;
  app = openAppDb(file);
});
afterEach(() => {
  app.close();
  cleanup();
});

describe('settings', () => {
  it('starts from the defaults (poll every 30 s) and keeps changes across reopen', () => {
    expect(new SettingsRepo(app).get()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.pollIntervalSeconds).toBe(30);
    new SettingsRepo(app).update({
      pollIntervalSeconds: 60,
      theme: 'dark',
      pushReceiver: { enabled: true, port: 0 },
    });
    app.close();
    app = openAppDb(file);
    expect(new SettingsRepo(app).get()).toMatchObject({
      pollIntervalSeconds: 60,
      theme: 'dark',
      pushReceiver: { enabled: true, port: 0 },
    });
  });

  it('refuses bad values and unknown keys with every reason, writing nothing', () => {
    const settings = new SettingsRepo(app);
    expect(() =>
      settings.update({
        pollIntervalSeconds: 1,
        defaultCountry: 'XX',
        theme: 'pink' as 'dark',
        extra: 1,
      } as never),
    ).toThrow(/pollIntervalSeconds.*defaultCountry.*theme.*unknown setting "extra"/);
    expect(settings.get()).toEqual(DEFAULT_SETTINGS);
  });
});
