/**
 * The ingest writer's derived rows (hourly and daily rollups, latest values, contact times):
 * held under load and written together, rebuilt at start-up after a process died with rows
 * held, isolated when a hostile value breaks them, written before a data deletion. Every check
 * compares the stored rows with a recomputation from the stored records. Real HTTP ingest and a
 * real database (PGlite files, and PostgreSQL when reachable), restarted on the same data.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/db';
import { DerivedRows, combineRollups } from '../../src/modules/telemetry/ingest-batch';
import type { RollupRow } from '../../src/modules/telemetry/telemetry.rows';
import { findPostgres, makeUser, signedIn, type DbKind, type TestPortal } from '../helpers';
import { randomDeviceId } from '../device-helpers';
import {
  expectDerivedMatchRecords,
  expectedFromRecords,
  makeDevice,
  postRecords,
  reopenableDb,
  storedDerived,
  type ReopenableDb,
} from '../ingest-helpers';

/** Holds every derived row until close (no light-load writes, no timed or idle writes). */
const HOLD_ALL = { lightIngestPerSecond: 0, derivedHoldMs: 3_600_000, derivedIdleWriteMs: 3_600_000 };
const unflushedSince = async (db: Db) =>
  (await db.query<{ unflushed_since: Date | null }>('SELECT unflushed_since FROM ingest_state'))[0]!.unflushed_since;

/**
 * Messages for the devices over the last two hours: several records each, numbers, strings,
 * booleans, arrays and events, out of time order, with every fifth message sent again with other
 * values (a resend: stored once, derived rows unchanged).
 */
/** The engine's DM1 (source 0) with one active code, SPN 100 and this failure mode. */
const dm1Frame = (fmi: number) => ({ id: 0x18feca00, data: `04FF64000${fmi}03FFFF` });

function messagesFor(ids: string[], nowS: number, perDevice: number): { id: string; body: unknown[] }[] {
  const out: { id: string; body: unknown[] }[] = [];
  ids.forEach((id, d) => {
    for (let m = 0; m < perDevice; m += 1) {
      const records = [0, 1, 2].map((r) => {
        const ts = nowS - 7000 + ((m * 37 + r * 1301 + d * 11) % 6900) + r / 10;
        return {
          ts,
          temp: 20 + ((m * 7 + r) % 13) - d,
          hum: (m * 3 + r) % 100,
          state: m % 2 === 0 ? 'on' : 'off',
          ok: r === 1,
          arr: [m, r],
          ...(m % 4 === 0 ? { events: [{ msg: `event ${m}`, lv: 25 }] } : {}),
          // Engine speed, and the engine's DM1: SPN 100 with a failure mode that changes (the newest wins).
          ...(r !== 1 ? { can1: [{ id: 0x0cf00400, data: 'F3FF8C204E00FFFF' }, dm1Frame(m % 3)] } : {}),
        };
      });
      out.push({ id, body: records });
      if (m % 5 === 0) out.push({ id, body: records.map((r) => ({ ...r, temp: -999 })) });
    }
  });
  return out;
}

async function sendAll(
  tp: TestPortal,
  devices: Map<string, { id: string; key: string }>,
  messages: ReturnType<typeof messagesFor>,
) {
  // In groups sent at once, so that batches hold several messages.
  for (let i = 0; i < messages.length; i += 40) {
    const statuses = await Promise.all(
      messages.slice(i, i + 40).map((m) => postRecords(tp, devices.get(m.id)!, m.body)),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
  }
}

describe('DerivedRows', () => {
  const row = (over: Partial<RollupRow>): RollupRow => ({
    device_id: 'D',
    key: 'k',
    bucket: 0,
    count: 1,
    min: 1,
    max: 1,
    sum: 1,
    first: 1,
    last: 1,
    first_ts: 10,
    last_ts: 10,
    ...over,
  });

  it('combines rollups like the upsert: earlier first wins, a tie of last goes to the newer', () => {
    const older = row({ count: 2, min: 0, max: 5, sum: 5, first: 0, first_ts: 5, last: 5, last_ts: 20 });
    const newer = row({ count: 1, min: 3, max: 3, sum: 3, first: 3, first_ts: 20, last: 3, last_ts: 20 });
    expect(combineRollups(older, newer)).toEqual(
      row({ count: 3, min: 0, max: 5, sum: 8, first: 0, first_ts: 5, last: 3, last_ts: 20 }),
    );
  });

  it('combine leaves both sets as they were (a failed write keeps the held rows intact)', () => {
    const a = new DerivedRows();
    a.addRecord('D', { ts: 100, x: 1, s: 'a' });
    a.addContact('D', 100);
    const b = new DerivedRows();
    b.addRecord('D', { ts: 50, x: 3, s: 'b' });
    b.addRecord('E', { ts: 60, x: 7 });
    const before = JSON.stringify([a.rows(), b.rows()], (_, v: unknown) => (v instanceof Map ? [...v] : v));
    const both = DerivedRows.combine(a, b);
    expect(JSON.stringify([a.rows(), b.rows()], (_, v: unknown) => (v instanceof Map ? [...v] : v))).toBe(before);
    const rows = both.rows();
    expect(rows.latest.find((l) => l.device_id === 'D' && l.key === 's')).toMatchObject({ value: 'a', ts: 100 });
    expect(rows.rollups.find((r) => r.device_id === 'D' && r.key === 'x')).toMatchObject({
      count: 2,
      sum: 4,
      first: 3,
      last: 1,
    });
    expect(both.rowCount()).toBe(rows.rollups.length + rows.latest.length);
  });
});

const pgUrl = await findPostgres();
const kinds: DbKind[] = pgUrl ? ['pglite', 'postgres'] : ['pglite'];

describe.each(kinds)('derived rows of ingest (%s)', (kind) => {
  let target: ReopenableDb | null = null;
  let open: TestPortal | null = null;
  afterEach(async () => {
    await open?.close().catch(() => undefined);
    open = null;
    await target?.cleanup();
    target = null;
  });

  async function withDevices(tp: TestPortal, count: number) {
    const devices = new Map<string, { id: string; key: string }>();
    for (let i = 0; i < count; i += 1) {
      const d = await makeDevice(tp, randomDeviceId('C'));
      devices.set(d.id, d);
    }
    return devices;
  }

  it('held under load, written together: they equal a recomputation from the records', async () => {
    target = await reopenableDb(kind);
    open = await target.start(HOLD_ALL);
    const devices = await withDevices(open, 3);
    const ids = [...devices.keys()];
    const nowS = open.clock.now().getTime() / 1000;
    await sendAll(open, devices, messagesFor(ids, nowS, 30));
    // Acknowledged, held: not in the tables yet, but the latest values read through the service.
    expect(await unflushedSince(open.portal.db)).not.toBeNull();
    expect((await storedDerived(open.portal.db, ids)).latest.size).toBe(0);
    const expected = await expectedFromRecords(open.portal.db, ids);
    const latest = await open.portal.app.services.telemetry.latest(ids[0]!);
    for (const [key, point] of Object.entries(latest))
      expect({ value: point.v, ts: point.ts }).toEqual(expected.latest.get(`${ids[0]}/${key}`));
    await open.close();
    open = await target.start();
    expect(await unflushedSince(open.portal.db)).toBeNull();
    await expectDerivedMatchRecords(open.portal.db, ids);
  });

  it('a process that dies with rows held: start-up rebuilds them from the records', async () => {
    target = await reopenableDb(kind);
    open = await target.start();
    const devices = await withDevices(open, 2);
    const ids = [...devices.keys()];
    const nowS = open.clock.now().getTime() / 1000;
    const messages = messagesFor(ids, nowS, 20);
    // Half written normally (rows written with their batches), then the rest by a process that
    // never writes its held rows, as if killed: the same hours get records from both.
    await sendAll(open, devices, messages.slice(0, messages.length / 2));
    await expectDerivedMatchRecords(open.portal.db, ids);
    await open.close();
    open = await target.start({ neverWriteDerived: true });
    await sendAll(open, devices, messages.slice(messages.length / 2));
    const since = await unflushedSince(open.portal.db);
    expect(since).not.toBeNull();
    await expect(expectDerivedMatchRecords(open.portal.db, ids)).rejects.toThrow();
    await open.close();
    open = await target.start();
    expect(await unflushedSince(open.portal.db)).toBeNull();
    await expectDerivedMatchRecords(open.portal.db, ids);
    // Rebuilding is idempotent: the next start finds nothing to do and changes nothing.
    await open.close();
    open = await target.start();
    await expectDerivedMatchRecords(open.portal.db, ids);
  });

  it('a value that would overflow a rollup sum is dropped at ingest: every message stored, other devices unharmed', async () => {
    target = await reopenableDb(kind);
    open = await target.start();
    const devices = await withDevices(open, 2);
    const [hostile, other] = [...devices.values()];
    const t = Math.floor(open.clock.now().getTime() / 1000 / 3600) * 3600 - 3600;
    expect(await postRecords(open, hostile!, { ts: t + 1, big: 1e308, temp: 1 })).toBe(200);
    expect(await postRecords(open, hostile!, { ts: t + 2, big: 1e308, temp: 2 })).toBe(200);
    expect(await postRecords(open, other!, { ts: t + 3, temp: 5 })).toBe(200);
    expect(await postRecords(open, hostile!, { ts: t + 4, temp: 3 })).toBe(200);
    const rows = await open.portal.db.query<{ key: string; count: number; sum: number }>(
      'SELECT key, count, sum FROM rollup_hour WHERE device_id = $1 ORDER BY key',
      [hostile!.id],
    );
    // 1e308 is beyond VALUE_MAX (2^53 - 1): dropped from its records, the rest of them stored.
    expect(rows).toEqual([{ key: 'temp', count: 3, sum: 6 }]);
    await expectDerivedMatchRecords(open.portal.db, [other!.id]);
    expect(await unflushedSince(open.portal.db)).toBeNull();
  });

  it('delete-data writes the held rows first: nothing of the deleted data comes back', async () => {
    target = await reopenableDb(kind);
    open = await target.start(HOLD_ALL);
    const tp = open;
    const made = await tp.portal.app.services.devices.createDevice(randomDeviceId('C'), { model: 'ORB-C1' }, null);
    const device = { id: made!.deviceid, key: made!.deviceKey };
    const user = await makeUser(tp);
    const client = await signedIn(tp, user);
    expect((await client.post(`/api/device/${device.id}/user`, { setupPassword: made!.setupPassword })).status).toBe(
      200,
    );
    const nowS = tp.clock.now().getTime() / 1000;
    await sendAll(tp, new Map([[device.id, device]]), messagesFor([device.id], nowS, 10));
    const res = await client.post(`/api/device/${device.id}/delete-data`, { setupPassword: made!.setupPassword });
    expect(res.status, res.text).toBe(200);
    expect(await postRecords(tp, device, { ts: nowS - 10, temp: 42 })).toBe(200);
    await tp.close();
    open = await target.start();
    await expectDerivedMatchRecords(open.portal.db, [device.id]);
    const latest = await open.portal.db.query<{ key: string }>('SELECT key FROM latest WHERE device_id = $1', [
      device.id,
    ]);
    expect(latest.map((l) => l.key)).toEqual(['temp']);
  });
});
