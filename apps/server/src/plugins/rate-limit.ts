/** Per-client (IP) request limits on the sign-in family of routes (@fastify/rate-limit). */
import type { FastifyInstance } from 'fastify';
import rateLimitPlugin from '@fastify/rate-limit';
import { rateLimited } from '../errors';

/** The per-route setting: `config: { rateLimit }` on a route. */
export interface RateLimit {
  max: number;
  timeWindow: number;
}

export function perMinute(max: number): RateLimit {
  return { max, timeWindow: 60_000 };
}

export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimitPlugin, {
    global: false,
    // Thrown by the plugin; the error handler turns it into { message, code: 'RATE_LIMITED' }.
    errorResponseBuilder: () => rateLimited(),
  });
}
