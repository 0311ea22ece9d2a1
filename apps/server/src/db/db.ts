/**
 * The database seam: one small interface over PGlite (embedded, in a worker thread) and
 * PostgreSQL (pg Pool). Both speak the same SQL; repositories only see `Db`.
 */

export interface Db {
  /** Which engine answers; for logs and tests only (SQL is the same for both). */
  readonly kind: 'pglite' | 'postgres';
  /** Runs one statement with positional parameters ($1, $2, ...) and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. Inside
   * `fn` use only `tx`: on PGlite a query on the outer Db waits for the transaction to end.
   * Keep slow work (password hashing, mail) outside.
   */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` with the payload of each NOTIFY on `channel` (this instance's and every other
   * instance's on the same database, once committed), and with null when some may have been
   * missed (the listening connection was lost and is back): whoever caches what the
   * notifications are about should then forget it all. Resolves once listening; what it resolves
   * to stops listening. `channel` is a plain identifier.
   */
  listen(channel: string, onNotify: (payload: string | null) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** True when `error` is a statement stopped by statement_timeout (SQLSTATE 57014, query_canceled). */
export function isStatementTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '57014';
}

/** True when `error` is a unique-constraint violation (SQLSTATE 23505), on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

export interface OpenDatabaseOptions {
  /** DATA_DIR: PGlite keeps its files in DATA_DIR/pglite; 'memory://' for an in-memory database. */
  dataDir: string;
  /** When set, PostgreSQL is used instead of PGlite. */
  databaseUrl?: string | undefined;
  /** PostgreSQL only: the schema to work in (created when missing); tests isolate runs with it. */
  schema?: string | undefined;
  /** PostgreSQL only: statement_timeout of every connection in ms (0 or unset: none). */
  statementTimeoutMs?: number | undefined;
  /**
   * PGlite only: a dumped data directory a new database starts from (tests start each portal from
   * one migrated database instead of an initdb and every migration); an existing one ignores it.
   */
  pgliteTemplate?: string | undefined;
}

/** Opens PostgreSQL when a URL is given, else the embedded PGlite database. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Db> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(options.databaseUrl, options.schema, options.statementTimeoutMs);
  }
  const { openPglite } = await import('./pglite');
  return openPglite(options.dataDir, options.pgliteTemplate);
}
