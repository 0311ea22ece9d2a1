/**
 * A runaway query is stopped on PostgreSQL (DB_STATEMENT_TIMEOUT_MS, issue 30): with a tiny
 * timeout, a read that groups a few hundred thousand records answers a clear 503 at once instead
 * of holding its connection, and the portal goes on answering. (PGlite cannot interrupt a
 * statement: there the bounds of each call must suffice; openapi bounds and fuzz tests.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWhenPostgres, startTestPortal, type TestPortal } from '../helpers';
import { claim, provision, signedInUser, type SignedInUser } from '../device-helpers';
import type { Provisioned } from '../device-helpers';

/** Small enough that grouping the records below always takes longer, large enough for every other query. */
const TIMEOUT_MS = 100;
const RECORDS = 300_000;

await describeWhenPostgres('statement timeout (postgres)', () => {
  let tp: TestPortal;
  let owner: SignedInUser;
  let device: Provisioned;
  beforeAll(async () => {
    tp = await startTestPortal({ db: 'postgres', seed: false, statementTimeoutMs: TIMEOUT_MS });
    owner = await signedInUser(tp);
    device = await provision(tp);
    expect((await claim(owner.client, device.deviceid, device.setupPassword)).status).toBe(200);
    // A second a record for three and a half days, written without the timeout (as a migration is).
    await tp.portal.db.transaction(async (tx) => {
      await tx.exec('SET LOCAL statement_timeout = 0');
      await tx.query(
        `INSERT INTO records (device_id, ts, received_at, data)
         SELECT $1, $2::double precision - i, now(), jsonb_build_object('a', i, 'b', i % 7, 'c', i % 13, 'd', 1.5)
           FROM generate_series(1, $3::integer) AS i`,
        [device.deviceid, Math.floor(tp.clock.now().getTime() / 1000), RECORDS],
      );
    });
    // As autovacuum would after such an insert: without statistics the planner reads every record for a LIMIT 10.
    await tp.portal.db.transaction(async (tx) => {
      await tx.exec('SET LOCAL statement_timeout = 0');
      await tx.exec('ANALYZE records');
    });
  }, 120_000);
  afterAll(async () => {
    await tp?.close();
  });

  it('answers 503 with a clear message when a statement runs past the timeout, and keeps answering', async () => {
    const nowS = Math.floor(tp.clock.now().getTime() / 1000);
    const query = `downsample=60&dataPoints=10000&fromTime=${nowS - RECORDS}&toTime=${nowS}`;
    const started = performance.now();
    const res = await owner.client.get(`/api/device/${device.deviceid}/data?${query}`);
    const ms = performance.now() - started;
    expect(res.status, res.text).toBe(503);
    expect(res.body).toEqual({
      code: 'UNAVAILABLE',
      message: 'The database took too long to answer. Try again, or ask for less (a shorter range).',
    });
    console.log(`statement timeout ${TIMEOUT_MS} ms: GET /data over ${RECORDS} records -> 503 in ${ms.toFixed(0)} ms`);
    const small = await owner.client.get(`/api/device/${device.deviceid}/data?dataPoints=10`);
    expect(small.status, small.text).toBe(200);
    expect((await tp.client().get('/api/health')).status).toBe(200);
  });
});
