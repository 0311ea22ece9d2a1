/**
 * GET /api/device/{id}/serverlog (spec 2 sections 6 and 7, spec 1 section 9; ledger SUB-25,
 * SUB-26, API-28), on PGlite and on PostgreSQL when reachable: newest first, paged with `before`
 * (no entry twice, none skipped, also between entries of the same second), one `kind` only, every
 * kind listed; ADMIN only (USER, OPERATOR and VIEW 403, a stranger 404); a Basic-plan device's log
 * refused with the plan's message; bad queries 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, serverLogUnavailableMessage } from '@portal/core';
import { type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import { type RoleFixture, deviceWithRoles, expectError } from '../device-helpers';

interface LogBody {
  deviceid: string;
  entries: { id: number; ts: number; kind: string; message: string }[];
  more: boolean;
  kinds: string[];
}

const KINDS = ['command', 'config', 'refused'] as const;

function describeServerLog(kind: DbKind): void {
  describe(`device server log (${kind})`, () => {
    let tp: TestPortal;
    let fx: RoleFixture;
    const path = (query = '') => `/api/device/${fx.device.deviceid}/serverlog${query}`;
    const read = async (query = '') => {
      const res = await fx.users.ADMIN.client.get(path(query));
      expect(res.status, res.text).toBe(200);
      return res.body as LogBody;
    };

    beforeAll(async () => {
      tp = await startTestPortal({ db: kind, seed: false });
      fx = await deviceWithRoles(tp);
      // 25 lines over 13 seconds, two to a second (the same time twice: paging must not skip or
      // repeat either), kinds in turn; written as the device log writes them.
      const base = tp.clock.now().getTime() - 60_000;
      const rows = Array.from({ length: 25 }, (_, i) => ({
        device_id: fx.device.deviceid,
        ts: new Date(base + Math.floor(i / 2) * 1000).toISOString(),
        kind: KINDS[i % KINDS.length]!,
        message: `line ${i}`,
      }));
      await tp.portal.db.query(
        `INSERT INTO server_log (device_id, ts, kind, message)
         SELECT device_id, ts, kind, message FROM jsonb_to_recordset($1::jsonb) AS x(device_id text, ts timestamptz, kind text, message text)`,
        [JSON.stringify(rows)],
      );
    });
    afterAll(async () => tp?.close());

    it('answers the newest first with every kind the log holds; pages with before, none twice and none skipped', async () => {
      const first = await read('?dataPoints=10');
      expect(first.entries.map((e) => e.message)).toEqual(
        [24, 23, 22, 21, 20, 19, 18, 17, 16, 15].map((i) => `line ${i}`),
      );
      expect(first.more).toBe(true);
      expect(first.kinds).toEqual([...KINDS]);
      const seen = [...first.entries];
      let page = first;
      while (page.more) {
        page = await read(`?dataPoints=10&before=${page.entries.at(-1)!.id}`);
        seen.push(...page.entries);
      }
      expect(page.entries).toHaveLength(5);
      expect(seen.map((e) => e.message)).toEqual(Array.from({ length: 25 }, (_, i) => `line ${24 - i}`));
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.ts).toBeLessThanOrEqual(seen[i - 1]!.ts);
    });

    it('filters by kind, paging within it', async () => {
      const refused = await read('?kind=refused&dataPoints=5');
      expect(refused.entries.map((e) => e.message)).toEqual(['line 23', 'line 20', 'line 17', 'line 14', 'line 11']);
      expect(refused.more).toBe(true);
      const rest = await read(`?kind=refused&dataPoints=5&before=${refused.entries.at(-1)!.id}`);
      expect(rest.entries.map((e) => e.message)).toEqual(['line 8', 'line 5', 'line 2']);
      expect(rest.more).toBe(false);
      expect(rest.kinds).toEqual([...KINDS]);
      expect((await read('?kind=retention')).entries).toEqual([]);
    });

    it("gives nothing before an entry that is not this device's", async () => {
      const other = await deviceWithRoles(tp);
      await tp.portal.db.query(
        `INSERT INTO server_log (device_id, ts, kind, message) VALUES ($1, now(), 'config', 'x')`,
        [other.device.deviceid],
      );
      const [row] = await tp.portal.db.query<{ id: number }>('SELECT id FROM server_log WHERE device_id = $1', [
        other.device.deviceid,
      ]);
      expect(await read(`?before=${row!.id}`)).toMatchObject({ entries: [], more: false });
    });

    it('is for the device ADMIN only: the other roles 403, a stranger 404', async () => {
      for (const role of ['USER', 'OPERATOR', 'VIEW'] as const)
        expectError(await fx.users[role].client.get(path()), 403, 'FORBIDDEN');
      expectError(await fx.users.STRANGER.client.get(path()), 404, 'NOT_FOUND');
    });

    it("refuses a Basic-plan device's log with the plan's message (a trial device's is read above)", async () => {
      const basic = await deviceWithRoles(tp);
      await tp.portal.db.query('UPDATE devices SET added_ts = added_ts - $2 WHERE id = $1', [
        basic.device.deviceid,
        (91 * DAY_MS) / 1000,
      ]);
      expectError(
        await basic.users.ADMIN.client.get(`/api/device/${basic.device.deviceid}/serverlog`),
        403,
        'FORBIDDEN',
        serverLogUnavailableMessage('Basic'),
      );
      expect(serverLogUnavailableMessage('Basic')).toBe('The server log is unavailable on the Basic Plan');
    });

    it.each([
      ['?kind=', /kind/],
      ['?kind=a%20b', /kind/],
      [`?kind=${'k'.repeat(33)}`, /kind/],
      ['?before=0', /before/],
      ['?before=1.5', /before/],
      ['?before=abc', /before/],
      ['?dataPoints=0', /dataPoints/],
    ])('refuses %s with 400', async (query, message) => {
      expectError(await fx.users.ADMIN.client.get(path(query)), 400, 'BAD_REQUEST', message);
    });
  });
}

describeServerLog('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeServerLog('postgres');
