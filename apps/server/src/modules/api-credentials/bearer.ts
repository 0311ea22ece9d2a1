/**
 * `Authorization: Bearer <key>` (DESIGN.md sections 4 and 5): an API key authenticates the calls
 * of the OpenAPI document that a session opens, as its user and with the same authorisation.
 *
 * - Only on the default brand's hosts (BRD-11); other brands answer 403.
 * - A bearer request never reads a cookie (plugins/auth.ts skips the session when the header is
 *   there: the key wins) and never gets one (any Set-Cookie is removed); it needs no CSRF header
 *   (plugins/csrf.ts), as a cross-site page cannot send an Authorization header.
 * - The credential, password, MFA and session calls refuse keys (403); a read-only key is refused
 *   every call but GET (403); an unknown, deleted or expired key is 401 at once (no cache).
 * - Each key has its own rate limit (API_KEY_REQUESTS_PER_MINUTE), apart from any route's own.
 * - The rest of the request runs in the credential's scope (modules/access/credential-scope.ts),
 *   which the access gate reads to refuse the devices whose plan has no API.
 * Routes where a session is not needed (public calls, device ingest) ignore the header.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_CREDENTIAL_MESSAGES, API_KEY_REQUESTS_PER_MINUTE, accessAllows, bearerKeyOf } from '@portal/core';
import { AppError, forbidden, unauthenticated } from '../../errors';
import { acceptsApiKey, refusesApiKey } from '../../plugins/route-security';
import { runWithCredential } from '../access/credential-scope';
import type { ApiCredentialsService, BearerCredential } from './api-credentials.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key a request was authenticated with, or null (a session, or none). */
    apiCredential: BearerCredential | null;
  }
  interface FastifyContextConfig {
    /** Set for every route when it is added: whether an API key opens it, is refused, or is ignored. */
    apiKey?: 'accepted' | 'refused';
  }
}

export interface BearerOptions {
  /** Requests per minute per key (API_KEY_REQUESTS_PER_MINUTE by default). */
  requestsPerMinute?: number;
}

/** Registers the bearer hooks; after the rate-limit plugin and before any route. */
export function registerBearerAuth(
  app: FastifyInstance,
  credentials: ApiCredentialsService,
  options: BearerOptions = {},
): void {
  app.decorateRequest('apiCredential', null);

  app.addHook('onRoute', (route) => {
    const apiKey = refusesApiKey(route) ? 'refused' : acceptsApiKey(route) ? 'accepted' : undefined;
    if (apiKey) route.config = { ...route.config, apiKey };
  });

  const limiter = app.createRateLimit({
    max: options.requestsPerMinute ?? API_KEY_REQUESTS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `api-key:${request.apiCredential?.id ?? ''}`,
  });

  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config?.apiKey;
    if (!mode) return;
    const key = bearerKeyOf(request.headers.authorization);
    if (key === undefined) return;
    if (!request.brand.allowAPI) throw forbidden(API_CREDENTIAL_MESSAGES.brandUnavailable);
    const found = await credentials.authenticate(key);
    if (!found) throw unauthenticated(API_CREDENTIAL_MESSAGES.invalidKey);
    if (mode === 'refused') throw forbidden(API_CREDENTIAL_MESSAGES.sessionOnly);
    if (!accessAllows(found.credential.access, request.method)) throw forbidden(API_CREDENTIAL_MESSAGES.readOnly);
    request.apiCredential = found.credential;
    const limit = await limiter(request);
    if (!limit.isAllowed && limit.isExceeded) {
      throw new AppError(429, 'RATE_LIMITED', API_CREDENTIAL_MESSAGES.tooManyRequests, Math.max(1, limit.ttlInSeconds));
    }
    request.user = found.user;
  });

  // The handler (and the route's preHandler hooks) runs in the credential's scope; callback style,
  // so they are called inside `run`. The route's guards ran already (onRequest, after this file's
  // onRequest hook): they read request.user, which the key set.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.apiCredential) runWithCredential(request.apiCredential, done);
    else done();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.apiCredential) reply.removeHeader('set-cookie');
    return payload;
  });
}
