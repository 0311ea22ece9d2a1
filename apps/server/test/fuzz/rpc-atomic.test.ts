/**
 * POST /api/device/{id}/rpc writes the command and its server-log line together or not at all,
 * on PGlite and on PostgreSQL when reachable: a trigger makes the log line's insert fail, and the
 * command must not stay queued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWhenPostgres, startTestPortal, type DbKind, type TestPortal } from '../helpers';
import { claim, provision, signedInUser } from '../device-helpers';

function describeAtomic(kind: DbKind) {
  describe(`rpc: the command and its log line in one transaction (${kind})`, () => {
    let tp: TestPortal;

    beforeAll(async () => {
      tp = await startTestPortal({ db: kind, seed: false });
      await tp.portal.db.exec(`
        CREATE FUNCTION fail_log_line() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.message LIKE '%Fail.LogLine%' THEN RAISE EXCEPTION 'the log line cannot be written'; END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER fail_log_line BEFORE INSERT ON server_log FOR EACH ROW EXECUTE FUNCTION fail_log_line();`);
    });
    afterAll(async () => {
      await tp?.close();
    });

    it('a command whose log line fails is not queued (500, nothing written); others are', async () => {
      const device = await provision(tp);
      const admin = await signedInUser(tp);
      expect((await claim(admin.client, device.deviceid, device.setupPassword)).status).toBe(200);
      const path = `/api/device/${device.deviceid}/rpc`;
      // Plain fetch: this 500 is provoked, not an answer the document describes.
      const failed = await fetch(tp.base + path, {
        method: 'POST',
        headers: {
          cookie: admin.client.cookieHeader(),
          'x-requested-with': 'portal',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ method: 'Fail.LogLine', args: {} }),
      });
      expect(failed.status).toBe(500);
      const rows = await tp.portal.db.query('SELECT method FROM commands WHERE device_id = $1', [device.deviceid]);
      expect(rows).toEqual([]);
      const queued = await admin.client.post(path, { method: 'Admin.Reboot', args: {} });
      expect(queued.status, queued.text).toBe(200);
      const after = await tp.portal.db.query<{ method: string }>('SELECT method FROM commands WHERE device_id = $1', [
        device.deviceid,
      ]);
      expect(after.map((r) => r.method)).toEqual(['Admin.Reboot']);
    });
  });
}

describeAtomic('pglite');

await describeWhenPostgres('rpc atomic (postgres)', () => describeAtomic('postgres'));
