// Once per `npm test` run (vitest's globalSetup): a folder where the first office-mode test makes one
// PostgreSQL cluster (initdb, the messenger role and database) that every later test copies instead of
// running initdb again (test/support/office-db.ts). initdb takes 2-5 s here; a copy ~0.1 s.
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the run's template PostgreSQL cluster (made by the first test that needs it). */
    pgTemplateDir: string;
  }
}

/** The free space /dev/shm needs to hold the tests' clusters and temporary folders. */
const SHM_NEEDED_BYTES = 2 * 1024 ** 3;

/**
 * Where the tests' PostgreSQL clusters go: /dev/shm (memory) where there is one, else the temporary
 * folder. On this machine's disk a copy of a cluster took ~1.9 s and on /dev/shm 0.12 s.
 */
export function clusterParent(shm = '/dev/shm'): string {
  try {
    accessSync(shm, constants.W_OK);
    // room for them: a container's /dev/shm is often 64 MB (Docker's default), the template cluster
    // ~46 MB and each test copies it (out of space, the office tests would fail)
    const { bavail, bsize } = statfsSync(shm);
    return bavail * bsize >= SHM_NEEDED_BYTES ? shm : tmpdir();
  } catch {
    return tmpdir();
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(clusterParent(), 'office-pg-template-'));
  // the postgres user (the tests run as root) reads the template to copy it
  chmodSync(dir, 0o755);
  project.provide('pgTemplateDir', dir);
  // The tests' data folders, gateways and browser profiles in memory too (the test processes, forked
  // after this, and their children read TMPDIR): an fsync on this machine's disk took ~4.5 ms under
  // load, on /dev/shm 0.01 ms. No test crashes the machine, so what an fsync guards is not tested by
  // where the folder is; the kill -9 tests kill processes, whose writes the kernel keeps either way.
  const before = process.env.TMPDIR;
  const temp = clusterParent() === tmpdir() ? null : mkdtempSync(join(clusterParent(), 'messenger-tests-'));
  if (temp !== null) {
    chmodSync(temp, 0o1777); // like /tmp: the postgres user makes and reaches folders in it
    process.env.TMPDIR = temp;
  }
  return () => {
    rmSync(dir, { recursive: true, force: true });
    if (temp !== null) {
      rmSync(temp, { recursive: true, force: true });
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  };
}
