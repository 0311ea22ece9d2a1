/** The Db seam on both engines: same values, transactions, errors, migrations. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, isUniqueViolation, type Db } from '../../src/db/db';
import { loadMigrations, migrate } from '../../src/db/migrate';
import { PG_CANDIDATES, dropSchema, findPostgres, newSchemaName, type DbKind } from '../helpers';

const pgUrl = await findPostgres();
if (!pgUrl) {
  if (process.env.REQUIRE_SERVICES === '1') {
    describe('PostgreSQL', () => {
      it('is reachable (REQUIRE_SERVICES=1)', () => {
        throw new Error(`PostgreSQL is not reachable (tried ${PG_CANDIDATES.join(', ')}; set TEST_DATABASE_URL)`);
      });
    });
  } else {
    console.log(
      `PostgreSQL is not reachable (tried ${PG_CANDIDATES.join(', ')}): the PostgreSQL run of the database tests is skipped.`,
    );
  }
}

const kinds: DbKind[] = pgUrl ? ['pglite', 'postgres'] : ['pglite'];

describe.each(kinds)('database on %s', (kind) => {
  let db: Db;
  let schema: string | undefined;

  beforeAll(async () => {
    schema = kind === 'postgres' ? newSchemaName() : undefined;
    db = await openDatabase({ dataDir: 'memory://', databaseUrl: kind === 'postgres' ? pgUrl! : undefined, schema });
    expect(await migrate(db)).toEqual((await loadMigrations()).map((m) => m.name));
  });
  afterAll(async () => {
    await db?.close();
    if (schema && pgUrl) await dropSchema(pgUrl, schema);
  });

  it('applies each migration once', async () => {
    expect(await migrate(db)).toEqual([]);
    const rows = await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual((await loadMigrations()).map((m) => m.version));
  });

  it('returns the same JavaScript values on both engines', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    await db.query(
      'INSERT INTO users (id, email, password_hash, email_verified, user_groups, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      ['v1', 'values@example.com', 'h', true, ['senquip_admin', 'distributors'], at],
    );
    const [row] = await db.query<Record<string, unknown>>(
      'SELECT id, email_verified, user_groups, created_at, phone, sms_pending_attempts, (SELECT count(*)::int FROM users) AS n FROM users WHERE id = $1',
      ['v1'],
    );
    expect(row).toEqual({
      id: 'v1',
      email_verified: true,
      user_groups: ['senquip_admin', 'distributors'],
      created_at: at,
      phone: null,
      sms_pending_attempts: 0,
      n: expect.any(Number),
    });
    expect(row!.created_at).toBeInstanceOf(Date);
    const [outbox] = await db.query<{ id: unknown }>(
      "INSERT INTO outbox (kind, recipient, body, created_at) VALUES ('sms', 'x', 'y', $1) RETURNING id",
      [at],
    );
    expect(typeof outbox!.id).toBe('number');
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await db.query("INSERT INTO groups (groupid, group_name) VALUES ('GTX00000001', 'before')");
    await expect(
      db.transaction(async (tx) => {
        await tx.query("UPDATE groups SET group_name = 'inside' WHERE groupid = 'GTX00000001'");
        expect(
          (await tx.query<{ group_name: string }>("SELECT group_name FROM groups WHERE groupid = 'GTX00000001'"))[0]!
            .group_name,
        ).toBe('inside');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(
      (await db.query<{ group_name: string }>("SELECT group_name FROM groups WHERE groupid = 'GTX00000001'"))[0]!
        .group_name,
    ).toBe('before');
    const result = await db.transaction(async (tx) => {
      await tx.query("UPDATE groups SET group_name = 'after' WHERE groupid = 'GTX00000001'");
      return tx.transaction(async (inner) => (await inner.query<{ n: number }>('SELECT 1::int AS n'))[0]!.n);
    });
    expect(result).toBe(1);
    expect(
      (await db.query<{ group_name: string }>("SELECT group_name FROM groups WHERE groupid = 'GTX00000001'"))[0]!
        .group_name,
    ).toBe('after');
  });

  it('keeps queries outside a transaction from seeing its uncommitted writes', async () => {
    await db.query("INSERT INTO groups (groupid, group_name) VALUES ('GTX00000002', 'a')");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tx = db.transaction(async (t) => {
      await t.query("UPDATE groups SET group_name = 'b' WHERE groupid = 'GTX00000002'");
      await gate;
    });
    // Outside the transaction: PGlite waits for it, PostgreSQL reads the committed value.
    const outside = db.query<{ group_name: string }>("SELECT group_name FROM groups WHERE groupid = 'GTX00000002'");
    release();
    await tx;
    const seen = (await outside)[0]!.group_name;
    expect(kind === 'pglite' ? seen === 'b' : seen === 'a' || seen === 'b').toBe(true);
    expect(
      (await db.query<{ group_name: string }>("SELECT group_name FROM groups WHERE groupid = 'GTX00000002'"))[0]!
        .group_name,
    ).toBe('b');
  });

  it('reports unique violations and syntax errors with their SQLSTATE code', async () => {
    await db.query("INSERT INTO groups (groupid, group_name) VALUES ('GTX00000003', 'x')");
    const dup = await db
      .query("INSERT INTO groups (groupid, group_name) VALUES ('GTX00000003', 'y')")
      .catch((e: unknown) => e);
    expect(isUniqueViolation(dup)).toBe(true);
    const bad = await db.query('SELEC 1').catch((e: unknown) => e);
    expect((bad as { code?: string }).code).toBe('42601');
    expect(isUniqueViolation(bad)).toBe(false);
    // The connection is still usable after errors.
    expect(await db.query<{ n: number }>('SELECT 2::int AS n')).toEqual([{ n: 2 }]);
  });
});
