/**
 * Which credentials a route demands, read from the guard hooks it runs: a guard is marked with
 * the security scheme it enforces, and the OpenAPI document (plugins/swagger.ts) gives every
 * operation that scheme as its security requirement, or none (public), with no declaration in
 * the route. A new guarded route is documented by using the guard. API keys (bearer) open the
 * routes a session guard opens, except the credential, password, MFA and session calls.
 */
import { isSessionOnlyPath } from '@portal/core';

/**
 * The security schemes of the document: the session cookie, a device's key (ingest), and the
 * secret an external broker's hooks carry (MQTT_AUTH_HOOK_SECRET).
 */
export type SecuritySchemeName = 'session' | 'deviceKey' | 'hookSecret';

const guards = new WeakMap<object, SecuritySchemeName>();

/** Marks `hook` (an onRequest/preValidation/preHandler function) as enforcing `scheme`; returns it. */
export function guardOf<T extends object>(scheme: SecuritySchemeName, hook: T): T {
  guards.set(hook, scheme);
  return hook;
}

const GUARD_HOOKS = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const;

/** The scheme a route's guard hooks enforce, or null when none guards it (a public route). */
export function routeSecurity(
  route: Partial<Record<(typeof GUARD_HOOKS)[number], unknown>>,
): SecuritySchemeName | null {
  for (const name of GUARD_HOOKS) {
    const hooks: unknown[] = [route[name] ?? []].flat();
    for (const hook of hooks) {
      const scheme = typeof hook === 'function' ? guards.get(hook) : undefined;
      if (scheme) return scheme;
    }
  }
  return null;
}

type RouteLike = Partial<Record<(typeof GUARD_HOOKS)[number], unknown>> & { url?: string };

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
