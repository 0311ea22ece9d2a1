import type { Db } from '../../db/db';
import { pingDatabase } from './health.repository';

export function createHealthService(deps: { db: Db }) {
  return {
    /** Resolves when the database answers. */
    async check(): Promise<{ status: 'ok' }> {
      await pingDatabase(deps.db);
      return { status: 'ok' };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
