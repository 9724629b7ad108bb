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
    globalSetup: ['./test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
