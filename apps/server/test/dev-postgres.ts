/**
 * PostgreSQL for the server tests and the benchmarks: finding a reachable one and dropping a
 * run's schema (development code: nothing under src imports it).
 */
import pg from 'pg';

/** `url` when one is set, else the local PostgreSQL as root or as postgres, database test. */
export function postgresCandidates(url: string | undefined): string[] {
  return url ? [url] : ['postgres://root@127.0.0.1:5432/test', 'postgres://postgres@127.0.0.1:5432/test'];
}

/** The first of `candidates` that connects and answers a query, or null. */
export async function firstReachablePostgres(candidates: string[]): Promise<string | null> {
  for (const url of candidates) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return url;
    } catch {
      // try the next candidate
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return null;
}

/** Drops a schema and everything in it (the end of a test or benchmark run). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
