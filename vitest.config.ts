import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for everything headless: unit tests of protocol/, integration tests against a real
// reference gateway on an ephemeral port, and e2e tests that drive Debian's Chromium.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // At least two test files at once: vitest's default (cores - 1) is one on a 2-core machine, where
    // most files spend their time waiting for gateways, browsers and PostgreSQL (a serial run used
    // ~0.6 of the two cores). 2026-11-27, full run at load ~4: 875 s one at a time, 429 s two.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['./test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
