/**
 * The group data reads (modules/telemetry/group-data.ts) and the event counts ingest keeps for
 * them: what groupDataRows answers equals a scan of the stored records and events, for
 * randomised batches through the real ingest writer; ranges are floored to whole hours and a
 * week reads daily rows plus the hourly edges; a failed batch leaves the counts as they were;
 * deleting a device's data removes them and a transfer moves them. PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLevel, markerSeverity, type EventLevel, type GroupDataDevice } from '@portal/core';
import type { Db } from '../../src/db/db';
import {
  groupDataParts,
  hourRange,
  rangePlan,
  type GroupDataQuery,
  type GroupMessage,
} from '../../src/modules/telemetry/group-data.repository';
import * as moves from '../../src/modules/telemetry/telemetry-moves.repository';
import * as writes from '../../src/modules/telemetry/telemetry-writes.repository';
import { findPostgres, startTestPortal, type DbKind, type TestPortal } from '../helpers';
import { randomDeviceId } from '../device-helpers';
import { eventCountsFromEvents, makeDevice, storedEventCounts } from '../ingest-helpers';

const HOUR = 3600;
const DAY = 86_400;

describe('hourRange and rangePlan', () => {
  it('floors both ends to whole hours; the end hour is read whole', () => {
    expect(hourRange(10 * HOUR + 1799, 20 * HOUR + 3599)).toEqual({ fromH: 10 * HOUR, toH: 20 * HOUR });
    expect(hourRange(10 * HOUR, 20 * HOUR)).toEqual({ fromH: 10 * HOUR, toH: 20 * HOUR });
  });

  it('a week reads its whole days from daily rows and the hours at the edges from hourly ones', () => {
    const d0 = 20_000 * DAY;
    // 05:00 on day 0 to 14:00 on day 7: days 1..6 whole, hours 05..23 of day 0 and 00..14 of day 7 are edges.
    expect(rangePlan(d0 + 5 * HOUR, d0 + 7 * DAY + 14 * HOUR)).toEqual({ dayFrom: d0 + DAY, dayTo: d0 + 7 * DAY });
    // Midnight to 23:00 seven days later: every day whole.
    expect(rangePlan(d0, d0 + 6 * DAY + 23 * HOUR)).toEqual({ dayFrom: d0, dayTo: d0 + 7 * DAY });
    // Within one day: no whole day, every hour an edge.
    const inDay = rangePlan(d0 + HOUR, d0 + 22 * HOUR);
    expect(inDay.dayFrom).toBe(inDay.dayTo);
  });
});

/** groupDataParts' parts read back as one object per device (each part is JSON object members). */
async function groupDataRows(db: Db, ids: string[], q: GroupDataQuery) {
  const parts = await groupDataParts(db, ids, q);
  return parts.map((part, i) => {
    const o = JSON.parse(`{${part}}`) as GroupDataDevice;
    return {
      deviceId: ids[i]!,
      lastContact: o.ts,
      latest: o.values,
      lat: o.lat,
      lon: o.lon,
      hdop: o.hdop,
      counts: { info: o.infoCount, alert: o.alertCount, warning: o.warningCount, alarm: o.alarmCount },
      messages: o.messages,
      marker: o.severity,
      stats: o.stats,
    };
  });
}

const pgUrl = await findPostgres();
const kinds: DbKind[] = pgUrl ? ['pglite', 'postgres'] : ['pglite'];

/** A small deterministic generator (the failing seed is in the test name). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const SEVERITIES = [null, 'INFO', 'alert', 'WARN', 'Warning', 'ALARM', 'bogus'];

/** What groupDataRows must answer for one device, from a scan of its records and events. */
async function scanned(
  db: Db,
  deviceId: string,
  fromS: number,
  toS: number,
  keys: string[],
  limit: number,
  statsKeys: string[] = [],
) {
  const fromH = Math.floor(fromS / HOUR) * HOUR;
  const end = Math.floor(toS / HOUR) * HOUR + HOUR;
  const events = await db.query<GroupMessage & { id: number }>(
    'SELECT id, ts, topic, msg, lv, severity FROM events WHERE device_id = $1 AND ts >= $2 AND ts < $3 ORDER BY ts DESC, id DESC',
    [deviceId, fromH, end],
  );
  const counts: Record<EventLevel, number> = { info: 0, alert: 0, warning: 0, alarm: 0 };
  for (const e of events) counts[eventLevel(e)] += 1;
  const records = await db.query<{ ts: number; data: Record<string, unknown> }>(
    'SELECT ts, data FROM records WHERE device_id = $1 ORDER BY ts',
    [deviceId],
  );
  const latest: Record<string, { v: unknown; ts: number }> = {};
  for (const r of records) {
    for (const [k, v] of Object.entries(r.data))
      if (keys.includes(k) || k.startsWith('gps_')) latest[k] = { v, ts: r.ts };
  }
  const position = (k: string) => (typeof latest[k]?.v === 'number' ? (latest[k].v as number) : null);
  // Stats of the stats keys: their numbers in the hours read (rounded: sums are added in another order).
  const stats: Record<string, { count: number; sum: number; min: number; max: number }> = {};
  for (const r of records) {
    if (r.ts < fromH || r.ts >= end) continue;
    for (const k of statsKeys) {
      const v = r.data[k];
      if (typeof v !== 'number') continue;
      const s = (stats[k] ??= { count: 0, sum: 0, min: v, max: v });
      s.count += 1;
      s.sum = Math.round((s.sum + v) * 1e6) / 1e6;
      s.min = Math.min(s.min, v);
      s.max = Math.max(s.max, v);
    }
  }
  return {
    latest: Object.fromEntries(Object.entries(latest).filter(([k]) => keys.includes(k))),
    lat: position('gps_lat'),
    lon: position('gps_lon'),
    hdop: position('gps_hdop'),
    counts,
    messages: events.slice(0, limit).map(({ id: _id, ...m }) => m),
    marker: markerSeverity(events),
    stats: statsKeys.length === 0 ? undefined : stats,
  };
}

describe.each(kinds)('group data (%s)', (kind) => {
  let tp: TestPortal;
  beforeAll(async () => {
    // Derived rows (latest values, contact times) with every batch, so that reads see them at once.
    tp = await startTestPortal({ db: kind, telemetry: { derivedHoldMs: 0 } });
  });
  afterAll(async () => {
    await tp?.close();
  });

  async function ingest(deviceId: string, body: unknown) {
    return tp.portal.app.services.telemetry.ingest({
      deviceId,
      kind: 'data',
      body,
      basic: false,
      receivedAt: tp.clock.now(),
      source: 'http',
    });
  }

  it.each([1, 2, 3])('randomised batches (seed %i): the reads equal a scan of records and events', async (seed) => {
    const random = rng(seed);
    const nowS = Math.floor(tp.clock.now().getTime() / 1000);
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) ids.push((await makeDevice(tp, randomDeviceId('G'))).id);
    // Records over a week, out of order, sent concurrently so that batches hold several devices.
    const sends: Promise<unknown>[] = [];
    for (let m = 0; m < 240; m += 1) {
      const id = ids[Math.floor(random() * ids.length)]!;
      const records = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
        const ts = nowS - Math.floor(random() * 6.9 * DAY) + Math.floor(random() * 1000) / 1000;
        const events = Array.from({ length: Math.floor(random() * 3) }, (_, k) => ({
          msg: `m${m}-${k}`,
          ...(random() < 0.7 ? { lv: Math.floor(random() * 45) - 2 } : {}),
          ...(random() < 0.5 ? { severity: SEVERITIES[Math.floor(random() * SEVERITIES.length)] ?? undefined } : {}),
        }));
        return {
          ts,
          temp: Math.round(random() * 400) / 10,
          gps_lat: random() * 180 - 90,
          gps_lon: random() * 360 - 180,
          ...(random() < 0.5 ? { gps_hdop: random() * 10 } : {}),
          ...(events.length > 0 ? { events } : {}),
        };
      });
      sends.push(ingest(id, records));
      // A resend: stored once, counted once.
      if (m % 7 === 0) sends.push(ingest(id, records));
    }
    await Promise.all(sends);
    expect(await storedEventCounts(tp.portal.db, ids)).toEqual(await eventCountsFromEvents(tp.portal.db, ids));
    for (let r = 0; r < 5; r += 1) {
      const fromS = nowS - Math.floor(random() * 7 * DAY);
      const toS = fromS + Math.floor(random() * 8 * DAY);
      const limit = 1 + Math.floor(random() * 6);
      const statsKeys = r % 2 === 0 ? ['temp', 'nope'] : [];
      const rows = await groupDataRows(tp.portal.db, ids, {
        fromS,
        toS,
        keys: ['temp', 'nope'],
        messages: limit,
        stats: statsKeys,
      });
      expect(rows.map((x) => x.deviceId)).toEqual(ids);
      for (const row of rows) {
        const expected = await scanned(tp.portal.db, row.deviceId, fromS, toS, ['temp', 'nope'], limit, statsKeys);
        const { deviceId: _d, lastContact, ...rest } = row;
        for (const s of Object.values(rest.stats ?? {})) s.sum = Math.round(s.sum * 1e6) / 1e6;
        expect(rest, `${row.deviceId} ${fromS}..${toS} (${limit})`).toEqual(expected);
        expect(lastContact).not.toBeNull();
      }
    }
  });

  it('the parts kept between calls equal the reads of the moment after every kind of change; only changed devices are read again', async () => {
    const telemetry = tp.portal.app.services.telemetry;
    const db = tp.portal.db;
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await makeDevice(tp, randomDeviceId('K'))).id);
    const [a, b, c] = ids as [string, string, string];
    const nowS = Math.floor(tp.clock.now().getTime() / 1000);
    const q: GroupDataQuery = { fromS: nowS - 7 * DAY, toS: nowS, keys: ['temp'], stats: ['temp'] };
    /** The kept parts against a read of the moment; returns how many parts the call read again. */
    const same = async (what: string) => {
      const before = telemetry.groupDataCacheStats().read;
      const kept = (await telemetry.groupDataParts(ids, q)).map(String);
      const read = telemetry.groupDataCacheStats().read - before;
      expect(kept, what).toEqual(await groupDataParts(db, ids, q));
      return read;
    };
    expect(await same('no data yet')).toBe(3);
    expect(await same('unchanged')).toBe(0);
    await ingest(a, [{ ts: nowS - 100, temp: 1.5, events: [{ msg: 'first', lv: 35 }] }]);
    expect(await same('a record with an event')).toBe(1);
    // An older record: contact time and latest value stay, the counts and messages change.
    await ingest(a, [{ ts: nowS - 3 * DAY, temp: 9, events: [{ msg: 'older', lv: 5 }] }]);
    expect(await same('an older record')).toBe(1);
    await ingest(b, [{ ts: nowS - 50, temp: 2.5 }]);
    expect(await same('a record without events')).toBe(1);
    await db.query(
      `UPDATE devices SET portal_name = 'Renamed', notes = '{"status":"Parked","make":"Cat"}' WHERE id = $1`,
      [c],
    );
    expect(await same('name and notes')).toBe(1);
    await telemetry.ingest({
      deviceId: c,
      kind: 'diag',
      body: { ts: nowS - 10, fw: 'SFW009-1.2.3' },
      basic: false,
      receivedAt: tp.clock.now(),
      source: 'http',
    });
    expect(await same('firmware reported')).toBe(1);
    expect(String((await telemetry.groupDataParts([c], q))[0])).toContain('"fw":"SFW009-1.2.3"');
    await db.transaction((tx) => moves.moveDeviceData(tx, a, b));
    expect(await same('data transferred')).toBe(2);
    await db.transaction((tx) => moves.deleteDeviceData(tx, b));
    await same('data deleted');
    await ingest(a, [{ ts: nowS - 40, temp: 3, events: [{ msg: 'again', lv: 25 }] }]);
    await same('data again');
    await telemetry.runRetention(new Date((nowS + 3 * 365 * DAY) * 1000));
    await same('retention');
    await db.query('DELETE FROM devices WHERE id = $1', [c]);
    expect(await same('device deleted')).toBe(1);
    await makeDevice(tp, c);
    expect(await same('device made again')).toBe(1);
    expect(await same('unchanged at the end')).toBe(0);
  });

  it('hours are floored and a week reads its whole days plus the edge hours', async () => {
    const id = (await makeDevice(tp, randomDeviceId('W'))).id;
    // Within the 7 days a record may be old.
    const d0 = Math.floor(tp.clock.now().getTime() / 1000 / DAY) * DAY - 6 * DAY;
    const fromS = d0 + 5 * HOUR + 1799; // floored to 05:00 of day 0
    const toS = d0 + 5 * DAY + 14 * HOUR + 1; // floored to 14:00 of day 5, read whole
    const at = (ts: number, severity: string) => ({ ts, x: 1, events: [{ msg: `${severity}@${ts}`, severity }] });
    await ingest(id, [
      at(d0 + 5 * HOUR - 1, 'ALARM'), // before the range
      at(d0 + 5 * HOUR, 'INFO'), // first edge hour
      at(d0 + 23 * HOUR + 10, 'ALERT'), // last edge hour of day 0
      at(d0 + DAY, 'WARN'), // first whole day
      at(d0 + 3 * DAY + 7 * HOUR, 'WARN'), // a whole day
      at(d0 + 5 * DAY - 1, 'INFO'), // last whole day
      at(d0 + 5 * DAY + 14 * HOUR + 3599, 'INFO'), // last edge hour, read whole
      at(d0 + 5 * DAY + 15 * HOUR, 'ALARM'), // after the range
    ]);
    const [row] = await groupDataRows(tp.portal.db, [id], { fromS, toS, keys: ['x'], messages: 2 });
    expect(row!.counts).toEqual({ info: 3, alert: 1, warning: 2, alarm: 0 });
    expect(row!.marker).toBe('warning');
    expect(row!.messages.map((m) => m.msg)).toEqual([
      `INFO@${d0 + 5 * DAY + 14 * HOUR + 3599}`,
      `INFO@${d0 + 5 * DAY - 1}`,
    ]);
    expect(row!.latest).toEqual({ x: { v: 1, ts: d0 + 5 * DAY + 15 * HOUR } });
    // One hour more at the start takes the alarm in.
    const [wider] = await groupDataRows(tp.portal.db, [id], { fromS: fromS - HOUR, toS, keys: [] });
    expect(wider!.counts.alarm).toBe(1);
    expect(wider!.marker).toBe('alarm');
  });

  it('a batch that fails leaves events and their counts as they were', async () => {
    const id = (await makeDevice(tp, randomDeviceId('F'))).id;
    const ts = Math.floor(tp.clock.now().getTime() / 1000) - 100;
    await ingest(id, [{ ts, events: [{ msg: 'kept', lv: 35 }] }]);
    const before = await storedEventCounts(tp.portal.db, [id]);
    expect([...before.hours.values()]).toEqual([1]);
    const row = (t: number) =>
      JSON.stringify({ device_id: id, ts: t, received_at: new Date().toISOString(), data: { ts: t } });
    const event = {
      device_id: id,
      name: null,
      ts: ts + 1,
      topic: null,
      msg: 'lost',
      lv: 35,
      severity: null,
      level: 'alarm' as const,
    };
    // The statement stores records, events and counts, then the transaction fails.
    await expect(
      tp.portal.db.transaction(async (tx) => {
        await writes.insertRecords(tx, [row(ts + 1)], [event]);
        throw new Error('batch failed');
      }),
    ).rejects.toThrow('batch failed');
    // The statement itself fails (an lv out of the column's range): nothing of it stays.
    await expect(
      writes.insertRecords(tp.portal.db, [row(ts + 2)], [{ ...event, ts: ts + 2, lv: 1e12 }]),
    ).rejects.toThrow();
    expect(await storedEventCounts(tp.portal.db, [id])).toEqual(before);
    expect(await eventCountsFromEvents(tp.portal.db, [id])).toEqual(before);
  });

  it('deleting a device’s data removes its counts; a transfer adds them to the target’s', async () => {
    const [a, b] = [(await makeDevice(tp, randomDeviceId('D'))).id, (await makeDevice(tp, randomDeviceId('D'))).id];
    const ts = Math.floor(tp.clock.now().getTime() / 1000) - 5000;
    await ingest(a, [
      {
        ts,
        events: [
          { msg: 'a1', lv: 35 },
          { msg: 'a2', lv: 5 },
        ],
      },
    ]);
    await ingest(b, [{ ts: ts + 1, events: [{ msg: 'b1', lv: 35 }] }]);
    const db = tp.portal.db;
    await db.transaction((tx) => moves.moveDeviceData(tx, a, b));
    expect((await storedEventCounts(db, [a])).hours.size).toBe(0);
    expect(await storedEventCounts(db, [b])).toEqual(await eventCountsFromEvents(db, [b]));
    const [moved] = await groupDataRows(db, [b], { fromS: ts - HOUR, toS: ts + HOUR, keys: [] });
    expect(moved!.counts).toEqual({ info: 1, alert: 0, warning: 0, alarm: 2 });
    // The newest messages of both lists, merged (event_newest moves with the events).
    expect(moved!.messages.map((m) => m.msg)).toEqual(['b1', 'a2', 'a1']);
    await db.transaction((tx) => moves.deleteDeviceData(tx, b));
    expect(await storedEventCounts(db, [b])).toEqual({ hours: new Map(), days: new Map() });
    const [gone] = await groupDataRows(db, [b], { fromS: ts - HOUR, toS: ts + HOUR, keys: [] });
    expect(gone).toMatchObject({
      counts: { info: 0, alert: 0, warning: 0, alarm: 0 },
      messages: [],
      marker: 'normal',
    });
  });
});

describe.each(kinds)('group data with derived rows held (%s)', (kind) => {
  let tp: TestPortal;
  beforeAll(async () => {
    // Latest values and contact times held in memory (as under load); events and counts go with their batch.
    tp = await startTestPortal({
      db: kind,
      telemetry: { lightIngestPerSecond: 0, derivedHoldMs: 3_600_000, derivedIdleWriteMs: 3_600_000 },
    });
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('held latest values and position are answered over the stored ones; messages and counts are there at once', async () => {
    const id = (await makeDevice(tp, randomDeviceId('H'))).id;
    const ts = Math.floor(tp.clock.now().getTime() / 1000) - 600;
    const outcome = await tp.portal.app.services.telemetry.ingest({
      deviceId: id,
      kind: 'data',
      body: [{ ts, temp: 4.5, gps_lat: -33.9, gps_lon: 151.2, note: 'x', events: [{ msg: 'held', lv: 25 }] }],
      basic: false,
      receivedAt: tp.clock.now(),
      source: 'http',
    });
    expect(outcome.stored).toBe(1);
    expect(await tp.portal.db.query('SELECT 1 FROM latest WHERE device_id = $1', [id])).toEqual([]);
    const [part] = await tp.portal.app.services.telemetry.groupDataParts([id], {
      fromS: ts - 3600,
      toS: ts,
      keys: ['temp', 'note'],
    });
    expect(JSON.parse(`{${part}}`)).toMatchObject({
      values: { temp: { v: 4.5, ts }, note: { v: 'x', ts } },
      lat: -33.9,
      lon: 151.2,
      hdop: null,
      warningCount: 1,
      messages: [{ msg: 'held', lv: 25 }],
      severity: 'warning',
    });
  });
});
