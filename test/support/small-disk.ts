// A small tmpfs for tests of a full disk (issue 25): mount(8) needs root, which CI has; where
// mounting is not permitted, `canMount` is false and the tests that need it are skipped.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A tmpfs of `size` mounted on `dir` (a new folder by default), or null where mounting is not permitted. */
export function smallDisk(
  size: string,
  dir = mkdtempSync(join(tmpdir(), 'messenger-full-disk-')),
): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

/** Writes `path` until the disk takes not one more byte. */
export function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const size of [1 << 16, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    }
  } finally {
    closeSync(fd);
  }
}

export const canMount = (() => {
  const probe = smallDisk('1m');
  if (probe === null) return false;
  execFileSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  return true;
})();
