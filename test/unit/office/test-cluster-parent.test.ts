// The tests' PostgreSQL clusters and temporary folders go to /dev/shm only where it has room for them
// (test/support/global-setup.ts). A container's /dev/shm is often 64 MB (Docker's default): the
// template cluster alone is ~46 MB, and every office test copies it. Before, any writable /dev/shm
// was taken, and the office tests failed there for want of space (ENOSPC) instead of using the disk.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { clusterParent } from '../../support/global-setup.ts';
import { canMount, smallDisk } from '../../support/small-disk.ts';

describe('where the tests put their PostgreSQL clusters', () => {
  it.skipIf(!canMount)('not on a /dev/shm too small for them (a container’s 64 MB)', () => {
    const small = smallDisk('64m');
    if (small === null) throw new Error('no tmpfs mounted');
    try {
      expect(clusterParent(small)).toBe(tmpdir());
    } finally {
      execFileSync('umount', [small]);
      rmSync(small, { recursive: true, force: true });
    }
  });
});
