/** MQTT device clients, small waits, and portals on a database that outlives them, for the ingest tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { EVENT_LEVELS, eventLevel, type DeviceRecord, type EventLevel } from '@portal/core';
import { busMessageRows } from '../src/modules/telemetry/ingest-batch';
import type { Db } from '../src/db/db';
import type { TelemetryOptions } from '../src/modules/telemetry/telemetry.service';
import type { BusMessageRow, LatestRow, RollupRow } from '../src/modules/telemetry/telemetry.rows';
import {
  dropSchema,
  findPostgres,
  newSchemaName,
  quietTestConfig,
  startPortalForTest,
  type DbKind,
  type TestPortal,
} from './helpers';

/** A device connected with its id and key (no reconnection: a refusal stays visible). */
export function connectDevice(url: string, id: string, key: string, extra: IClientOptions = {}): Promise<MqttClient> {
  return mqtt.connectAsync(url, {
    username: id,
    password: key,
    clientId: `${id}-${Math.random().toString(36).slice(2, 8)}`,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    ...extra,
  });
}

/** Collects the messages a client receives, and waits for the next one on a topic. */
export function inbox(client: MqttClient) {
  const messages: { topic: string; body: unknown }[] = [];
  const waiters: { topic: string; resolve: (body: unknown) => void }[] = [];
  client.on('message', (topic, payload) => {
    const body = JSON.parse(payload.toString('utf8')) as unknown;
    const i = waiters.findIndex((w) => w.topic === topic);
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(body);
    else messages.push({ topic, body });
  });
  return {
    messages,
    next(topic: string): Promise<unknown> {
      const i = messages.findIndex((m) => m.topic === topic);
      if (i >= 0) return Promise.resolve(messages.splice(i, 1)[0]!.body);
      return new Promise((resolve) => waiters.push({ topic, resolve }));
    },
  };
}

/** Polls `check` until it returns a value other than undefined/false (bounded by the test timeout). */
export async function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  intervalMs = 20,
): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Resolves when the client is closed by the other side. */
export function closed(client: MqttClient): Promise<void> {
  return new Promise((resolve) => {
    if (client.disconnected || !client.connected) return resolve();
    client.once('close', () => resolve());
  });
}

// ---------------------------------------------------------------- a portal on a database that outlives it

/** A database a test opens with several portals in turn (PGlite files, or a PostgreSQL schema). */
export interface ReopenableDb {
  kind: DbKind;
  /** Starts a portal on it (no demo seed, ephemeral ports). */
  start(telemetry?: Partial<TelemetryOptions>): Promise<TestPortal>;
  /** Removes the database. */
  cleanup(): Promise<void>;
}

export async function reopenableDb(kind: DbKind): Promise<ReopenableDb> {
  const dir = kind === 'pglite' ? mkdtempSync(join(tmpdir(), 'ingest-')) : null;
  const databaseUrl = kind === 'postgres' ? ((await findPostgres()) ?? undefined) : undefined;
  if (kind === 'postgres' && !databaseUrl) throw new Error('PostgreSQL is not reachable');
  const schema = newSchemaName();
  return {
    kind,
    async start(telemetry = {}) {
      const config = quietTestConfig({ DATA_DIR: dir ?? 'memory://', DATABASE_URL: databaseUrl });
      return startPortalForTest(config, { telemetry, ...(databaseUrl ? { dbSchema: schema } : {}) });
    },
    async cleanup() {
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (databaseUrl) await dropSchema(databaseUrl, schema);
    },
  };
}

/** A device made through the devices service (as provisioning does); returns its id and key. */
export async function makeDevice(tp: TestPortal, id: string): Promise<{ id: string; key: string }> {
  const made = await tp.portal.app.services.devices.createDevice(id, { model: 'ORB-C1' }, null);
  if (!made) throw new Error(`device ${id} exists already`);
  return { id, key: made.deviceKey };
}

/** POST /api/ingest/{id} over real HTTP; resolves with the status once the portal answered. */
export async function postRecords(tp: TestPortal, device: { id: string; key: string }, body: unknown): Promise<number> {
  const res = await tp.client().request('POST', `/api/ingest/${device.id}`, {
    body,
    headers: { authorization: `Device ${device.key}` },
    csrf: false,
  });
  return res.status;
}

// ---------------------------------------------------------------- derived rows against the records

const STRUCTURED = new Set(['ts', 'events', 'can1', 'can2']);

/** One rollup row's figures (of an hour or a day). */
export type Agg = Omit<RollupRow, 'device_id' | 'key' | 'bucket'>;

export interface Derived {
  hours: Map<string, Agg>;
  days: Map<string, Agg>;
  latest: Map<string, { value: unknown; ts: number }>;
  /** What the CAN frames told (`device/bus/pgn/source`): the newest time heard and a DM1's report. */
  bus: Map<string, { ts: number; dm1: unknown }>;
  contacts: Map<string, number>;
}

const busMap = (rows: BusMessageRow[]) =>
  new Map(rows.map((b) => [`${b.device_id}/${b.bus}/${b.pgn}/${b.source}`, { ts: b.ts, dm1: b.dm1 }]));

/** The buckets and aggregates of one device's key, from a map of `Derived` (keyed `device/key/bucket`). */
export function bucketsOf(aggs: Map<string, Agg>, deviceId: string, key: string): [number, Agg][] {
  const series = `${deviceId}/${key}`;
  return [...aggs].flatMap(([id, a]): [number, Agg][] => {
    const cut = id.lastIndexOf('/');
    return id.slice(0, cut) === series ? [[Number(id.slice(cut + 1)), a]] : [];
  });
}

function addTo(map: Map<string, Agg>, key: string, v: number, ts: number): void {
  const a = map.get(key);
  if (!a) return void map.set(key, { count: 1, min: v, max: v, sum: v, first: v, last: v, first_ts: ts, last_ts: ts });
  a.count += 1;
  a.min = Math.min(a.min, v);
  a.max = Math.max(a.max, v);
  a.sum += v;
  if (ts < a.first_ts) [a.first, a.first_ts] = [v, ts];
  if (ts > a.last_ts) [a.last, a.last_ts] = [v, ts];
}

/** What the derived rows of these devices must be, computed from their stored records. */
export async function expectedFromRecords(db: Db, ids: string[]): Promise<Derived> {
  const rows = await db.query<{ device_id: string; ts: number; received_at: Date; data: Record<string, unknown> }>(
    'SELECT device_id, ts, received_at, data FROM records WHERE device_id = ANY($1::text[]) ORDER BY device_id, ts',
    [ids],
  );
  const out: Derived = { hours: new Map(), days: new Map(), latest: new Map(), bus: new Map(), contacts: new Map() };
  // The frames' rows as ingest derives them from each record (core's decoder is tested on its own).
  out.bus = busMap(
    busMessageRows(
      rows
        .filter((r) => r.data.can1 !== undefined || r.data.can2 !== undefined)
        .map((r) => ({ device_id: r.device_id, record: { ...(r.data as Omit<DeviceRecord, 'ts'>), ts: r.ts } })),
    ),
  );
  for (const r of rows) {
    const received = new Date(r.received_at).getTime() / 1000;
    out.contacts.set(r.device_id, Math.max(out.contacts.get(r.device_id) ?? 0, received));
    for (const [key, value] of Object.entries(r.data)) {
      if (STRUCTURED.has(key)) continue;
      const lk = `${r.device_id}/${key}`;
      if ((out.latest.get(lk)?.ts ?? -Infinity) <= r.ts) out.latest.set(lk, { value, ts: r.ts });
      if (typeof value !== 'number') continue;
      addTo(out.hours, `${lk}/${Math.floor(r.ts / 3600) * 3600}`, value, r.ts);
      addTo(out.days, `${lk}/${Math.floor(r.ts / 86_400) * 86_400}`, value, r.ts);
    }
  }
  return out;
}

/** The derived rows stored for these devices. */
export async function storedDerived(db: Db, ids: string[]): Promise<Derived> {
  const aggs = async (table: string) => {
    const rows = await db.query<RollupRow>(
      `SELECT device_id, key, bucket, count, min, max, sum, first, last, first_ts, last_ts FROM ${table}
        WHERE device_id = ANY($1::text[])`,
      [ids],
    );
    return new Map(rows.map(({ device_id, key, bucket, ...a }) => [`${device_id}/${key}/${bucket}`, a]));
  };
  const latest = await db.query<LatestRow>(
    'SELECT device_id, key, value, ts FROM latest WHERE device_id = ANY($1::text[])',
    [ids],
  );
  const contacts = await db.query<{ id: string; last_contact: number | null }>(
    'SELECT id, last_contact FROM devices WHERE id = ANY($1::text[]) AND last_contact IS NOT NULL',
    [ids],
  );
  const bus = await db.query<BusMessageRow>(
    'SELECT device_id, bus, pgn, source, ts, dm1 FROM bus_messages WHERE device_id = ANY($1::text[])',
    [ids],
  );
  return {
    hours: await aggs('rollup_hour'),
    days: await aggs('rollup_day'),
    latest: new Map(latest.map((l) => [`${l.device_id}/${l.key}`, { value: l.value, ts: l.ts }])),
    bus: busMap(bus),
    contacts: new Map(contacts.map((c) => [c.id, Number(c.last_contact)])),
  };
}

function expectAggs(actual: Map<string, Agg>, expected: Map<string, Agg>, label: string, exactSums: boolean): void {
  expect([...actual.keys()].sort(), label).toEqual([...expected.keys()].sort());
  for (const [key, e] of expected) {
    const a = actual.get(key)!;
    const { sum, ...rest } = a;
    const { sum: expectedSum, ...expectedRest } = e;
    expect(rest, `${label} ${key}`).toEqual(expectedRest);
    if (exactSums) expect(sum, `${label} ${key} sum`).toEqual(expectedSum);
    else expect(sum, `${label} ${key} sum`).toBeCloseTo(expectedSum, 6);
  }
}

/** Event counts (`device/bucket/level` -> count) by hour and by day, from a scan of the stored events. */
export async function eventCountsFromEvents(
  db: Db,
  ids: string[],
): Promise<{ hours: Map<string, number>; days: Map<string, number> }> {
  const events = await db.query<{ device_id: string; ts: number; lv: number | null; severity: string | null }>(
    'SELECT device_id, ts, lv, severity FROM events WHERE device_id = ANY($1::text[])',
    [ids],
  );
  const out = { hours: new Map<string, number>(), days: new Map<string, number>() };
  for (const e of events) {
    const level = eventLevel(e);
    for (const [map, seconds] of [
      [out.hours, 3600],
      [out.days, 86_400],
    ] as const) {
      const key = `${e.device_id}/${Math.floor(e.ts / seconds) * seconds}/${level}`;
      map.set(key, (map.get(key) ?? 0) + 1);
    }
  }
  return out;
}

/** The event counts stored for these devices (event_hour and event_day). */
export async function storedEventCounts(
  db: Db,
  ids: string[],
): Promise<{ hours: Map<string, number>; days: Map<string, number> }> {
  const read = async (table: string) => {
    const rows = await db.query<{ device_id: string; bucket: number } & Record<EventLevel, number>>(
      `SELECT device_id, bucket, info, alert, warning, alarm FROM ${table} WHERE device_id = ANY($1::text[])`,
      [ids],
    );
    // Level by level as the scan counts them (a level without events has no entry).
    const out = new Map<string, number>();
    for (const r of rows) {
      for (const level of EVENT_LEVELS) if (r[level] !== 0) out.set(`${r.device_id}/${r.bucket}/${level}`, r[level]);
    }
    return out;
  };
  return { hours: await read('event_hour'), days: await read('event_day') };
}

/**
 * Stored derived rows (rollups, latest values, contact times) and event counts equal a recomputation from the
 * stored records; contact times are the batches' times, a few ms after receipt. `latest` and
 * `contacts` false leave those out; `exactSums` compares rollup sums exactly, not to 6 places.
 */
export async function expectDerivedMatchRecords(
  db: Db,
  ids: string[],
  options: { latest?: boolean; contacts?: boolean; exactSums?: boolean } = {},
): Promise<void> {
  const [actual, expected] = [await storedDerived(db, ids), await expectedFromRecords(db, ids)];
  const exactSums = options.exactSums ?? false;
  expectAggs(actual.hours, expected.hours, 'rollup_hour', exactSums);
  expectAggs(actual.days, expected.days, 'rollup_day', exactSums);
  // Event counts are written in the statement that stores their events: always equal.
  expect(await storedEventCounts(db, ids)).toEqual(await eventCountsFromEvents(db, ids));
  if (options.latest !== false) {
    expect(actual.latest).toEqual(expected.latest);
    expect(actual.bus).toEqual(expected.bus);
  }
  if (options.contacts === false) return;
  expect([...actual.contacts.keys()].sort()).toEqual([...expected.contacts.keys()].sort());
  for (const [id, ts] of expected.contacts) expect(Math.abs(actual.contacts.get(id)! - ts), id).toBeLessThan(5);
}

// ---------------------------------------------------------------- the external broker (Mosquitto)

/** The external broker the MQTT_URL tests use (TEST_MQTT_URL, else the machine's Mosquitto). */
export const EXTERNAL_MQTT_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** True when an MQTT broker answers at `url`. */
export async function brokerReachable(url: string): Promise<boolean> {
  try {
    const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 3000 });
    await client.endAsync();
    return true;
  } catch {
    return false;
  }
}

/**
 * A GET /data answer with every point reduced to v and ts, for tests about values and times: each
 * point also carries source and aws_ts (CARD-28), which telemetry/record-origin.test.ts checks.
 */
export function vts<T>(body: unknown): T {
  const answer = body as { data?: Record<string, { v: unknown; ts: number }[]> };
  if (!answer?.data) return body as T;
  const data = Object.fromEntries(
    Object.entries(answer.data).map(([key, points]) => [key, points.map(({ v, ts }) => ({ v, ts }))]),
  );
  return { ...answer, data } as T;
}
