/** The same route suite on PostgreSQL, each run in a fresh schema; skipped when unreachable. */
import { describe, it } from 'vitest';
import { PG_CANDIDATES, findPostgres } from '../helpers';
import { describeServerSuite } from '../server-suite';

const url = await findPostgres();

if (url) {
  describeServerSuite('postgres');
} else if (process.env.REQUIRE_SERVICES === '1') {
  describe('PostgreSQL', () => {
    it('is reachable (REQUIRE_SERVICES=1)', () => {
      throw new Error(`PostgreSQL is not reachable (tried ${PG_CANDIDATES.join(', ')}; set TEST_DATABASE_URL)`);
    });
  });
} else {
  console.log(
    `PostgreSQL is not reachable (tried ${PG_CANDIDATES.join(', ')}): the PostgreSQL run of the server suite is skipped.`,
  );
  describe.skip('server suite on PostgreSQL (not reachable)', () => {
    it('skipped', () => undefined);
  });
}
