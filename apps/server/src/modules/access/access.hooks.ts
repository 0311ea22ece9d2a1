/**
 * The gate's request guards: sign-in and staff groups, decided before the body is read. A route
 * puts them as its `onRequest` hook, so a caller without the right credentials gets 401/403 and
 * never a validation message that would describe a signed-in call (plugins/route-security.ts,
 * which also marks each guard with the security scheme the OpenAPI document gives its routes).
 * The session itself (request.user) is resolved by plugins/auth.ts or an API key (bearer.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { UserGroup } from '@portal/core';
import { forbidden, unauthenticated } from '../../errors';
import { guardOf } from '../../plugins/route-security';

/** A route's onRequest guard: 401 'No current user' without a live session (or API key, bearer.ts). */
export const requireUser = guardOf('session', async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthenticated();
});

/** A route's onRequest guard: 401 without a session; the user must belong to one of `groups` (staff groups), else 403. */
export function requireGroup(...groups: [UserGroup, ...UserGroup[]]) {
  return guardOf('session', async (request: FastifyRequest): Promise<void> => {
    if (!request.user) throw unauthenticated();
    const mine = request.user.userGroups;
    if (!groups.some((group) => mine.includes(group))) throw forbidden();
  });
}
