/** The OpenAPI document as the portal generates it: buildApp (the factory main uses) on an in-memory PGlite. */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { openPglite } from '../../src/db/pglite';
import { pgliteTemplate } from '../suite-setup';

/** The parts of an OpenAPI 3.0 document the tests read. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Record<string, unknown>> };
}
export interface OpenApiOperation {
  operationId?: string;
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
}

export interface DocumentedApp {
  app: FastifyInstance;
  /** A deep copy of the document: tests may change it. */
  document(): OpenApiDocument;
  close(): Promise<void>;
}

/** The app, ready; `addRoutes` may add routes first (test-only routes appear in the document too). */
export async function buildDocumentedApp(addRoutes?: (app: FastifyInstance) => void): Promise<DocumentedApp> {
  const db = await openPglite('memory://', pgliteTemplate());
  // With the broker hooks, which only MQTT_AUTH_HOOK_SECRET turns on: every route is in the document.
  const app = await buildApp({
    db,
    logLevel: 'silent',
    mqttAuthHooks: { secret: 'document-hook-secret', portalUser: null },
  });
  addRoutes?.(app);
  await app.ready();
  return {
    app,
    document: () => structuredClone(app.swagger()) as unknown as OpenApiDocument,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
