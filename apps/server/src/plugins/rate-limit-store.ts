/**
 * The store of @fastify/rate-limit's counters in the database, so that every instance on the same
 * PostgreSQL counts against the same limit (with PGlite there is one instance: the same code).
 * A counter is one row: an upsert adds the hit, or starts a new window when the last one ended,
 * and answers the hits so far and the milliseconds the window still runs, all in the database's
 * time, so instances whose clocks differ still agree. Windows that ended are swept at most once a
 * minute, after a hit.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../db/db';
import * as repo from './rate-limit.repository';

/**
 * What the plugin passes a store's child at run time: the route's merged settings, with the route
 * in `routeInfo` (its types name the route options instead).
 */
interface ChildParams {
  routeInfo?: { method?: string | string[]; url?: string };
}

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

const SWEEP_EVERY_MS = 60_000;

/** A counter's namespace: the route's method and URL, or 'limiter' for a limiter made in code. */
function namespaceOf(params: ChildParams): string {
  const info = params.routeInfo;
  if (!info?.url) return 'limiter';
  const method = Array.isArray(info.method) ? info.method.join(',') : (info.method ?? '');
  return `${method} ${info.url}`;
}

/** The store class to hand the plugin (`store`), counting in `db`. */
export function databaseRateLimitStore(db: Db, onError: (error: unknown) => void): FastifyRateLimitStoreCtor {
  let lastSweep = 0;
  const sweep = () => {
    const now = Date.now();
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    repo.sweepEnded(db).catch(onError);
  };

  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    private readonly namespace: string;

    constructor(params: unknown, namespace = 'global') {
      void params;
      this.namespace = namespace;
    }

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      repo.hit(db, `${this.namespace} ${key}`, timeWindow).then(
        ({ hits, ttlMs }) => {
          callback(null, { current: hits, ttl: ttlMs });
          sweep();
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(params: object): FastifyRateLimitStore {
      return new DatabaseRateLimitStore(params, namespaceOf(params as ChildParams));
    }
  };
}
