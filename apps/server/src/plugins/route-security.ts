/**
 * Which credentials a route demands, read from the guard hooks it runs: a guard is marked with
 * the security scheme it enforces, and the OpenAPI document (plugins/swagger.ts) gives every
 * operation that scheme as its security requirement, or none (public), with no declaration in
 * the route. A new guarded route is documented by using the guard. API keys (bearer) open the
 * routes a session guard opens, except the credential, password, MFA and session calls.
 *
 * Credentials come before the request's content (DESIGN.md section 5): a guard runs `onRequest`,
 * before the body is read and before the body, query and path parameters are validated, so a
 * caller without the right credentials gets 401/403 and never a validation message that would
 * describe a signed-in call. registerGuardPlacement makes the app refuse to start when a guard is
 * put in a later phase.
 */
import type { FastifyInstance } from 'fastify';
import { isSessionOnlyPath } from '@portal/core';

/**
 * The security schemes of the document: the session cookie, a device's key (ingest), and the
 * secret an external broker's hooks carry (MQTT_AUTH_HOOK_SECRET).
 */
export type SecuritySchemeName = 'session' | 'deviceKey' | 'hookSecret';

const guards = new WeakMap<object, SecuritySchemeName>();

/** Marks `hook` (a route's `onRequest` function) as enforcing `scheme`; returns it. */
export function guardOf<T extends object>(scheme: SecuritySchemeName, hook: T): T {
  guards.set(hook, scheme);
  return hook;
}

/** The phases after the body is read or validated: no guard may run in them. */
const LATE_HOOKS = ['preParsing', 'preValidation', 'preHandler'] as const;

type RouteLike = Partial<Record<'onRequest' | (typeof LATE_HOOKS)[number], unknown>> & { url?: string };

const schemesIn = (hooks: unknown): SecuritySchemeName[] =>
  [hooks ?? []].flat().flatMap((hook) => {
    const scheme = typeof hook === 'function' ? guards.get(hook) : undefined;
    return scheme ? [scheme] : [];
  });

/** The scheme a route's guard hooks (onRequest) enforce, or null when none guards it (a public route). */
export function routeSecurity(route: RouteLike): SecuritySchemeName | null {
  return schemesIn(route.onRequest)[0] ?? null;
}

/** The later phases (preParsing, preValidation, preHandler) in which `route` runs a guard: none on a sound route. */
export function lateGuardPhases(route: RouteLike): string[] {
  return LATE_HOOKS.filter((phase) => schemesIn(route[phase]).length > 0);
}

/**
 * Every route added after this call must run its guards `onRequest`: a guard in a later phase
 * fails the start, naming the route (it would let validation answer a caller without credentials).
 */
export function registerGuardPlacement(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const late = lateGuardPhases(route);
    if (late.length === 0) return;
    const method = [route.method].flat().join(',');
    throw new Error(
      `${method} ${route.url}: a credential guard runs as ${late.join(', ')}; guards run onRequest, before the body is read and validated (plugins/route-security.ts)`,
    );
  });
}

/**
 * True when an API key (`Authorization: Bearer`) opens the route as a session does: every route
 * a session guard opens (DESIGN.md section 5) but the credential, password, MFA and session calls.
 */
export function acceptsApiKey(route: RouteLike): boolean {
  return routeSecurity(route) === 'session' && !isSessionOnlyPath(route.url ?? '');
}

/** True when the route refuses API keys outright (403): the credential, password, MFA and session calls. */
export function refusesApiKey(route: RouteLike): boolean {
  return route.url !== undefined && route.url.startsWith('/api/') && isSessionOnlyPath(route.url);
}
