/** The same route suite on PostgreSQL, each run in a fresh schema; skipped when unreachable. */
import { describeWhenPostgres } from '../helpers';
import { describeServerSuite } from '../server-suite';

await describeWhenPostgres('the server suite on PostgreSQL', () => describeServerSuite('postgres'));
