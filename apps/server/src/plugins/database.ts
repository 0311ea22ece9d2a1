/** Makes the database reachable as `app.db` for plugins; routes go through services instead. */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

export function registerDatabase(app: FastifyInstance, db: Db): void {
  app.decorate('db', db);
}
