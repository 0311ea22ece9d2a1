/**
 * The run's migrated PGlite template (suite-setup.ts), which every in-memory test portal starts
 * from: it holds every migration and nothing else, and what one portal writes never reaches the
 * template or the next portal started from it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrations } from '../../src/db/migrate';
import { openPglite } from '../../src/db/pglite';
import { DEMO_USER } from '../../src/seed';
import { makeUser, startTestPortal, userRow, type TestPortal } from '../helpers';
import { pgliteTemplate } from '../suite-setup';

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('the migrated PGlite template', () => {
  const opened: TestPortal[] = [];
  afterAll(async () => {
    for (const tp of opened) await tp.close();
  });

  it('holds every migration and no rows of any portal', async () => {
    const db = await openPglite('memory://', pgliteTemplate());
    try {
      const versions = await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(versions.map((r) => r.version)).toEqual((await loadMigrations()).map((m) => m.version));
      for (const table of ['users', 'devices', 'sessions']) {
        expect(await db.query(`SELECT count(*)::int AS n FROM ${table}`), table).toEqual([{ n: 0 }]);
      }
    } finally {
      await db.close();
    }
  });

  it("a portal's changes stay its own: the next portal from the template starts without them", async () => {
    const template = pgliteTemplate();
    const before = digest(template);

    const first = await startTestPortal({ db: 'pglite' });
    opened.push(first);
    const own = await makeUser(first);
    await first.portal.db.query('UPDATE users SET phone = $2 WHERE email = $1', [DEMO_USER.email, '+61400000000']);
    expect((await userRow(first, DEMO_USER.email)).phone).toBe('+61400000000');

    const second = await startTestPortal({ db: 'pglite' });
    opened.push(second);
    await expect(userRow(second, own.email)).rejects.toThrow(`no user ${own.email}`);
    expect((await userRow(second, DEMO_USER.email)).phone).not.toBe('+61400000000');
    expect(digest(template)).toBe(before);
  });
});
