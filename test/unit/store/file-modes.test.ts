// Issue 17, item 11: other local users cannot read the app's messages: the data folder 0700, the
// database (and its WAL) and the preferences 0600, also for a folder and database made 0755/0644
// by an earlier version.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppStore } from '../../../main/store/app-store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const mode = (p: string): number => statSync(p).mode & 0o777;

describe.skipIf(process.platform === 'win32')('app data file modes', () => {
  it('creates the folder 0700 and the files 0600', () => {
    const root = mkdtempSync(join(tmpdir(), 'messenger-modes-'));
    dirs.push(root);
    const dir = join(root, 'data');
    const store = openAppStore(join(dir, 'messenger.db'));
    store.contacts.add({ name: 'A', number: '447700900123' });
    store.preferences.set('pollIntervalSeconds', 60);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'messenger.db'))).toBe(0o600);
    if (existsSync(join(dir, 'messenger.db-wal'))) expect(mode(join(dir, 'messenger.db-wal'))).toBe(0o600);
    expect(mode(join(dir, 'preferences.json'))).toBe(0o600);
    store.app.close();
  });

  it('narrows what an earlier version left readable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'messenger-modes-old-'));
    dirs.push(dir);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'messenger.db'), '');
    chmodSync(join(dir, 'messenger.db'), 0o644);
    mkdirSync(join(dir, 'x'));
    const store = openAppStore(join(dir, 'messenger.db'));
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'messenger.db'))).toBe(0o600);
    store.app.close();
  });
});
