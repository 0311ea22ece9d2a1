/** PostgreSQL through a pg Pool; used when DATABASE_URL is set. */
import pg from 'pg';
import type { Db } from './db';
import { DbError } from './db-error';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function wrap(error: unknown): Error {
  if (error instanceof Error && typeof (error as { code?: unknown }).code === 'string') return error;
  return error instanceof Error ? new DbError(error.message) : new DbError(String(error));
}

class PostgresDb implements Db {
  readonly kind = 'postgres' as const;

  constructor(
    private readonly pool: pg.Pool,
    private readonly client?: pg.PoolClient,
  ) {}

  async query<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    try {
      const result = await (this.client ?? this.pool).query(sql, params as unknown[]);
      return result.rows as T[];
    } catch (error) {
      throw wrap(error);
    }
  }

  async exec(sql: string): Promise<void> {
    try {
      await (this.client ?? this.pool).query(sql);
    } catch (error) {
      throw wrap(error);
    }
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    // Nested transactions simply join the outer one.
    if (this.client) return fn(this);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(new PostgresDb(this.pool, client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw wrap(error);
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** Connects to PostgreSQL; with `schema`, every connection works in that schema (created when missing). */
export async function openPostgres(databaseUrl: string, schema?: string): Promise<Db> {
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new DbError(`Invalid schema name: ${schema}`);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  try {
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    throw new DbError(`Cannot connect to PostgreSQL (DATABASE_URL): ${message || (error as { code?: string }).code}`);
  }
  return new PostgresDb(pool);
}
