/** Liveness (GET /api/health): the server answers, and so does its database. */
import type { Db } from '../../db/db';
import { pingDatabase } from './health.repository';

export interface HealthService {
  /** Resolves when the database answers. */
  check(): Promise<{ status: 'ok' }>;
}

export function createHealthService(deps: { db: Db }): HealthService {
  return {
    async check(): Promise<{ status: 'ok' }> {
      await pingDatabase(deps.db);
      return { status: 'ok' };
    },
  };
}
