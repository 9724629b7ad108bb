import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temp folder for a real SQLite file; `cleanup` removes it. */
export function tempDbFile(name = 'app.sqlite'): { file: string; dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'messenger-store-'));
  return { file: join(dir, name), dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
