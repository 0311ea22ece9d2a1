import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'core',
          include: ['packages/core/test/**/*.test.ts'],
        },
      },
      {
        test: {
          // eslint.config.js shown a wrong import per boundary rule (STYLE.md 13).
          name: 'lint',
          include: ['lint/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          // One migrated PGlite database for the run, which each in-memory portal starts from.
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'simulator',
          include: ['apps/simulator/test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/src/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A page answers in its own time: expect.poll waits as long as a person would (Vitest's default is 1 s).
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
          pool: 'forks',
        },
      },
    ],
  },
});
