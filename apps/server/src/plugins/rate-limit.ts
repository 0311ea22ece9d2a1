/**
 * Request limits (@fastify/rate-limit): per client address on the sign-in family of routes, and
 * per API key. The counters are shared by every instance: in Redis when REDIS_URL is set, else in
 * the database (rate-limit-store.ts).
 */
import type { FastifyInstance } from 'fastify';
import rateLimitPlugin from '@fastify/rate-limit';
import type { Db } from '../db/db';
import { rateLimited } from '../errors';
import { databaseRateLimitStore } from './rate-limit-store';

/** The per-route setting: `config: { rateLimit }` on a route. */
export interface RateLimit {
  max: number;
  timeWindow: number;
}

export function perMinute(max: number): RateLimit {
  return { max, timeWindow: 60_000 };
}

export interface RateLimitStoreOptions {
  db: Db;
  /** REDIS_URL: keep the counters in this Redis instead of the database. */
  redisUrl?: string | undefined;
}

export async function registerRateLimit(app: FastifyInstance, options: RateLimitStoreOptions): Promise<void> {
  const common = {
    global: false,
    // Thrown by the plugin; the error handler turns it into { message, code: 'RATE_LIMITED' }.
    errorResponseBuilder: () => rateLimited(),
  };
  if (options.redisUrl) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 5000 });
    redis.on('error', (error: Error) =>
      app.log.warn({ err: error }, 'Redis (REDIS_URL) error: request limits are not applied'),
    );
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    // An unreachable Redis lets requests through (logged above) rather than failing them.
    await app.register(rateLimitPlugin, { ...common, redis, nameSpace: 'portal-rate-limit:', skipOnError: true });
    return;
  }
  const store = databaseRateLimitStore(options.db, (error) =>
    app.log.warn({ err: error }, 'Sweeping ended rate-limit windows failed'),
  );
  await app.register(rateLimitPlugin, { ...common, store });
}
