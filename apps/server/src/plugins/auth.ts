/**
 * Sessions: the `portal_session` cookie is resolved to `request.user` on every /api call (a global
 * onRequest hook, so before any route's own hooks); the access gate's guards (requireUser and
 * requireGroup, modules/access/access.hooks.ts) then guard routes as their `onRequest` hook, before
 * the body is read or validated (route-security.ts). Cookies are HttpOnly, SameSite=Lax,
 * host-only, and Secure except on localhost, *.localhost and loopback addresses.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import { SESSION_MAX_AGE_S, bearerKeyOf } from '@portal/core';
import { unauthenticated } from '../errors';
import { CHALLENGE_MAX_AGE_SECONDS, type AuthService, type User } from '../modules/auth/auth.service';

export const SESSION_COOKIE = 'portal_session';
export const MFA_COOKIE = 'portal_mfa';

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null;
    sessionHash: string | null;
  }
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** True when cookies may go without Secure: a local development host. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOCAL_HOSTS.has(host) || host.endsWith('.localhost');
}

function cookieOptions(request: FastifyRequest, maxAge: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: !isLocalHost(request.hostname ?? ''),
    maxAge,
  };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, sessionId: string): void {
  reply.setCookie(SESSION_COOKIE, sessionId, cookieOptions(request, SESSION_MAX_AGE_S));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, 0));
}

export function setMfaCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(MFA_COOKIE, token, cookieOptions(request, CHALLENGE_MAX_AGE_SECONDS));
}

export function clearMfaCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(MFA_COOKIE, cookieOptions(request, 0));
}

export async function registerAuth(app: FastifyInstance, auth: AuthService): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionHash', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    // A request with an API key never reads the session cookie: the key alone decides (bearer.ts).
    if (bearerKeyOf(request.headers.authorization) !== undefined) return;
    const found = await auth.authenticate(request.cookies[SESSION_COOKIE]);
    if (found) {
      request.user = found.user;
      request.sessionHash = found.sessionHash;
    }
  });
}

/** The user of a route guarded by requireUser. */
export function signedInUser(request: FastifyRequest): User {
  if (!request.user) throw unauthenticated();
  return request.user;
}

/** The session of a route guarded by requireUser. */
export function currentSessionHash(request: FastifyRequest): string {
  if (!request.sessionHash) throw unauthenticated();
  return request.sessionHash;
}
