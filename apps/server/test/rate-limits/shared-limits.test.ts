/**
 * Request limits are shared by every instance (issue 17): two portals on one PostgreSQL schema
 * count the sign-in family's limit together, as do two portals on one Redis (REDIS_URL) whatever their
 * databases; each route keeps its own count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { expectError } from '../device-helpers';
import {
  dropSchema,
  describeWhenPostgres,
  findPostgres,
  newSchemaName,
  quietTestConfig,
  startPortalForTest,
  uniqueEmail,
  type TestPortal,
} from '../helpers';

const LIMIT = 3;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A reset request: a route of the sign-in family limited at RATE_LIMIT_PER_MINUTE (the sign-in calls allow more). */
const resetRequest = (tp: TestPortal) => tp.client().post('/api/auth/reset', { email: uniqueEmail('rl') });

/** LIMIT requests spread over both portals, then one more on each: refused by both. */
async function expectSharedLimit(a: TestPortal, b: TestPortal): Promise<void> {
  for (let i = 0; i < LIMIT; i += 1) expect((await resetRequest(i % 2 === 0 ? a : b)).status).toBe(200);
  const refusedByA = await resetRequest(a);
  const refusedByB = await resetRequest(b);
  expectError(refusedByA, 429, 'RATE_LIMITED');
  expectError(refusedByB, 429, 'RATE_LIMITED');
  expect(Number(refusedByB.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(refusedByB.headers['retry-after'])).toBeLessThanOrEqual(60);
  // Another route of the family counts on its own.
  expectError(
    await b.client().post('/api/auth/login', { email: uniqueEmail('rl'), password: 'password-1' }),
    401,
    'INVALID_CREDENTIALS',
  );
}

await describeWhenPostgres('request limits shared through PostgreSQL', () => {
  let a: TestPortal;
  let b: TestPortal;
  let url: string;
  const schema = newSchemaName();

  beforeAll(async () => {
    url = (await findPostgres())!;
    const config = quietTestConfig({ DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    a = await startPortalForTest(config, { dbSchema: schema });
    b = await startPortalForTest(config, { dbSchema: schema });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    if (url) await dropSchema(url, schema);
  });

  it(`two instances on one database allow ${LIMIT} reset requests a minute between them, not ${LIMIT} each`, async () => {
    await expectSharedLimit(a, b);
  });

  it('windows that ended are swept from the table', async () => {
    await a.portal.db.query(`UPDATE rate_limit_counters SET reset_at = now() - interval '1 second'`);
    // A new window starts on the next try.
    expect((await resetRequest(a)).status).toBe(200);
    const rows = await a.portal.db.query<{ hits: number }>('SELECT hits FROM rate_limit_counters');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.hits === 1)).toBe(true);
  });
});

/** True when Redis answers at `url`. */
async function redisReachable(url: string): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const withRedis = await redisReachable(REDIS_URL);
if (!withRedis && process.env.REQUIRE_SERVICES !== '1')
  console.log(`Redis is not reachable at ${REDIS_URL} (set TEST_REDIS_URL): the Redis limit test is skipped.`);

// Under REQUIRE_SERVICES=1 (CI) an unreachable Redis fails here rather than skipping.
describe.skipIf(!withRedis && process.env.REQUIRE_SERVICES !== '1')(
  'request limits shared through Redis (REDIS_URL)',
  () => {
    let a: TestPortal | undefined;
    let b: TestPortal | undefined;
    let redis: Redis | undefined;

    beforeAll(async () => {
      redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3000 });
      await redis.connect();
      // Counters of an earlier run on this address would still be in their window.
      const stale = await redis.keys('portal-rate-limit:*');
      if (stale.length > 0) await redis.del(...stale);
      // Each on its own in-memory database: only Redis is shared.
      const config = quietTestConfig({ REDIS_URL, RATE_LIMIT_PER_MINUTE: String(LIMIT) });
      a = await startPortalForTest(config);
      b = await startPortalForTest(config);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await redis?.quit();
    });

    it(`two instances on one Redis allow ${LIMIT} reset requests a minute between them`, async () => {
      await expectSharedLimit(a!, b!);
      expect((await redis!.keys('portal-rate-limit:*')).length).toBeGreaterThan(0);
    });
  },
);
