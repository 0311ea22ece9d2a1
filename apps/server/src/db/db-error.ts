/**
 * An error raised by the database, with the PostgreSQL SQLSTATE code when there is one. Apart from
 * db.ts so that the engines (pglite.ts, postgres.ts), which db.ts loads, need not import db.ts.
 */
export class DbError extends Error {
  readonly code: string | undefined;
  readonly constraint: string | undefined;
  constructor(message: string, code?: string, constraint?: string) {
    super(message);
    this.name = 'DbError';
    this.code = code;
    this.constraint = constraint;
  }
}
