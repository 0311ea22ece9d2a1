/**
 * CSRF guard: a state-changing call must carry `X-Requested-With: portal`. A cross-site form
 * cannot set the header, and a cross-site fetch that sets it needs a CORS preflight we never grant.
 * Checked onRequest, before the session, the API key and every route's guard, so before the body
 * is read or validated (decisions.md, 'Order of checks').
 */
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { bearerKeyOf } from '@portal/core';
import { AppError } from '../errors';

export const CSRF_HEADER = 'x-requested-with';
export const CSRF_VALUE = 'portal';
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false for a route that authenticates otherwise (device ingest with its own key). */
    csrf?: boolean;
  }
}

/** Whether a `method` request to a route with `config` must carry the header (the guard, and the document's 403). */
export function demandsCsrfHeader(method: string, config: FastifyContextConfig | undefined): boolean {
  return !SAFE_METHODS.has(method) && config?.csrf !== false;
}

export function registerCsrf(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!demandsCsrfHeader(request.method, request.routeOptions.config)) return;
    // An API key (Authorization: Bearer) is no ambient credential: a cross-site page cannot send it,
    // and a bearer request never reads the session cookie (plugins/auth.ts).
    if (bearerKeyOf(request.headers.authorization) !== undefined) return;
    if (request.headers[CSRF_HEADER] !== CSRF_VALUE) {
      throw new AppError(403, 'CSRF', `Missing header X-Requested-With: ${CSRF_VALUE}`);
    }
  });
}
