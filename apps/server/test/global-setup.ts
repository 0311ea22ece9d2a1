/** Vitest global setup of the server and browser tests: the run's migrated PGlite template. */
import type { TestProject } from 'vitest/node';
import { ensurePgliteTemplate } from './suite-setup';

export default async function setup(project: TestProject): Promise<void> {
  project.provide('pgliteTemplate', await ensurePgliteTemplate());
}
