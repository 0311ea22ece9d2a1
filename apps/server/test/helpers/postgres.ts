/** PostgreSQL for tests: the reachable server, a fresh schema name, and the suites declared only when it answers. */
import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { dropSchema, firstReachablePostgres, postgresCandidates } from '../dev-postgres';

export const PG_CANDIDATES = postgresCandidates(process.env.TEST_DATABASE_URL);

let pgUrl: Promise<string | null> | undefined;

/** A reachable PostgreSQL URL for tests, or null. */
export function findPostgres(): Promise<string | null> {
  pgUrl ??= firstReachablePostgres(PG_CANDIDATES);
  return pgUrl;
}

export { dropSchema };

/**
 * Declares `suite` when PostgreSQL is reachable. Otherwise, under REQUIRE_SERVICES=1 (CI), a
 * test named `title` that fails saying so; else a skipped one, and a line in the output.
 */
export async function describeWhenPostgres(title: string, suite: () => void): Promise<void> {
  if (await findPostgres()) return suite();
  const tried = `tried ${PG_CANDIDATES.join(', ')}; set TEST_DATABASE_URL`;
  if (process.env.REQUIRE_SERVICES === '1') {
    describe(title, () => {
      it('has PostgreSQL (REQUIRE_SERVICES=1)', () => {
        throw new Error(`PostgreSQL is not reachable (${tried})`);
      });
    });
    return;
  }
  console.log(`PostgreSQL is not reachable (${tried}): ${title} is skipped.`);
  describe.skip(`${title}: PostgreSQL not reachable`, () => it('skipped', () => undefined));
}

export const newSchemaName = () => `t_${randomBytes(6).toString('hex')}`;
