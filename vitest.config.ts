import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One test file per core at a time (Vitest's default is one fewer than the cores: a single
    // worker on a 2-core machine, with the other core idle while a file waits).
    maxWorkers: availableParallelism(),
    projects: [
      {
        test: {
          name: 'core',
          include: ['packages/core/test/**/*.test.ts'],
          // Pure functions: a worker keeps core's modules from file to file (importing them again
          // for each of the 69 files took 0.45 s a file).
          isolate: false,
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
          // A worker keeps its modules from file to file (importing the server took 4-7 s a file);
          // each file still starts and closes its own portals, on their own databases and ports.
          isolate: false,
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
          // After the other projects (group 1), one file per core, each with its own portal and
          // Chromium: a browser test mostly waits on its pages and simulated devices (one file at a
          // time kept two cores a third busy). Three at a time were 13% faster still, but a wait
          // for a page timed out under that load.
          sequence: { groupOrder: 1 },
          maxWorkers: availableParallelism(),
          pool: 'forks',
          // As in the server project: a worker keeps its modules (the portal, Playwright, the
          // simulator) from file to file instead of a new process importing them for each file.
          isolate: false,
        },
      },
    ],
  },
});
