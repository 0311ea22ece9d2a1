/** PostgreSQL through a pg Pool; used when DATABASE_URL is set. */
import pg from 'pg';
import { CHANNEL_NAME } from './channel';
import type { Db } from './db';
import { DbError } from './db-error';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function wrap(error: unknown): Error {
  if (error instanceof Error && typeof (error as { code?: unknown }).code === 'string') return error;
  return error instanceof Error ? new DbError(error.message) : new DbError(String(error));
}

/** After a lost listening connection, the wait before connecting again. */
const RELISTEN_DELAY_MS = 1000;

class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  /** The listeners to stop on close. */
  private readonly listening = new Set<() => Promise<void>>();

  constructor(
    private readonly pool: pg.Pool,
    /** How to open a connection of its own (a listener holds one outside the pool). */
    private readonly connection: pg.ClientConfig,
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
      const result = await fn(new PostgresDb(this.pool, this.connection, client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw wrap(error);
    } finally {
      client.release();
    }
  }

  /**
   * LISTEN on a connection of its own. A lost connection is opened again after a second, and
   * `onNotify(null)` says that notifications may have been missed meanwhile.
   */
  async listen(channel: string, onNotify: (payload: string | null) => void): Promise<() => Promise<void>> {
    if (!CHANNEL_NAME.test(channel)) throw new DbError(`Invalid channel name: ${channel}`);
    let stopped = false;
    let current: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;

    const open = async (): Promise<void> => {
      const client = new pg.Client(this.connection);
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      // The 'end' that follows an error opens the connection again.
      client.on('error', () => undefined);
      client.on('end', () => {
        if (stopped || current !== client) return;
        current = undefined;
        retry = setTimeout(reopen, RELISTEN_DELAY_MS);
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
      } catch (error) {
        await client.end().catch(() => undefined);
        throw wrap(error);
      }
      current = client;
    };
    const reopen = () => {
      if (stopped) return;
      open().then(
        () => onNotify(null),
        () => (retry = setTimeout(reopen, RELISTEN_DELAY_MS)),
      );
    };

    await open();
    const stop = async () => {
      stopped = true;
      this.listening.delete(stop);
      clearTimeout(retry);
      await current?.end().catch(() => undefined);
    };
    this.listening.add(stop);
    return stop;
  }

  async close(): Promise<void> {
    await Promise.all([...this.listening].map((stop) => stop()));
    await this.pool.end();
  }
}

/**
 * Connects to PostgreSQL; with `schema`, every connection works in that schema (created when
 * missing); with `statementTimeoutMs` (> 0), PostgreSQL stops any statement that runs longer
 * (SQLSTATE 57014, answered 503 by the error handler): a runaway query cannot hold a connection.
 */
export async function openPostgres(databaseUrl: string, schema?: string, statementTimeoutMs?: number): Promise<Db> {
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new DbError(`Invalid schema name: ${schema}`);
  const options = [
    ...(schema ? [`-c search_path=${schema}`] : []),
    ...(statementTimeoutMs ? [`-c statement_timeout=${Math.floor(statementTimeoutMs)}`] : []),
  ];
  const connection: pg.ClientConfig = {
    connectionString: databaseUrl,
    ...(options.length > 0 ? { options: options.join(' ') } : {}),
  };
  const pool = new pg.Pool({ ...connection, max: 10 });
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
  return new PostgresDb(pool, connection);
}
