/**
 * Pure part of the writer: turns a batch of ingest items into the rows of one transaction
 * (validated records, events, rollups, latest values, diagnostics, server-log lines).
 */
import {
  BASIC_RECORD_INTERVAL_S,
  RECORD_LIMITS,
  RECORD_STRUCTURED_KEYS,
  busGroupsOf,
  eventLevel,
  isJsonTextStorableAsIs,
  jsonStorageProblem,
  parseDeviceRecord,
  truncateText,
  type DeviceRecord,
} from '@portal/core';
import type { BusMessageRow, DiagnosticsRow, IngestEventRow, LatestRow, RollupRow } from './telemetry.rows';
import type { ServerLogRow } from '../device-log/device-log.service';

export type IngestKind = 'data' | 'diag';

export interface IngestItem {
  deviceId: string;
  kind: IngestKind;
  /** The parsed JSON body; absent when `error` says why the message could not be read. */
  body?: unknown;
  /**
   * The body's JSON text as received, when there is one. A single record accepted unchanged is
   * stored from this text (jsonb reads it as JSON.parse did) rather than written out again.
   */
  text?: string;
  error?: string;
  /** Basic plan: keep at most one record per 5 minutes. */
  basic: boolean;
  receivedAt: Date;
  source: 'mqtt' | 'http' | 'import';
}

export interface IngestOutcome {
  /** Records stored by this message. */
  stored: number;
  /** Records already stored (same device and ts): acknowledged, stored once. */
  duplicates: number;
  /** Records thinned out by the Basic plan. */
  thinned: number;
  /** Why records (or the whole message) were refused. */
  refused: string[];
  /** Keys dropped from accepted records. */
  dropped: string[];
}

export interface Candidate {
  itemIndex: number;
  deviceId: string;
  record: DeviceRecord;
  /** The record's row of the records insert, as JSON text. */
  row: string;
}

/**
 * An item checked when it arrives (off the writer's path): what its batch will write of it. It
 * keeps no reference to the message's body or text, which would otherwise stay alive (and be
 * copied by every young-generation collection) until the batch commits.
 */
export interface PreparedItem {
  item: Pick<IngestItem, 'deviceId' | 'basic' | 'receivedAt' | 'source'>;
  /** The outcome so far: refusals and dropped keys (a batch counts stored, duplicates, thinned). */
  outcome: IngestOutcome;
  records: { record: DeviceRecord; row: string }[];
  diagnostics: DiagnosticsRow | null;
  serverLog: ServerLogRow[];
}

export interface PreparedBatch {
  outcomes: IngestOutcome[];
  candidates: Candidate[];
  diagnostics: DiagnosticsRow[];
  serverLog: ServerLogRow[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function logRow(deviceId: string, at: Date, kind: string, message: string): ServerLogRow {
  return { device_id: deviceId, ts: at.toISOString(), kind, message: truncateText(message, 2000) };
}

/**
 * Whether an accepted record is its message's object as sent: nothing dropped, and none of the
 * structured keys (events and CAN frames), whose validation may leave out unknown fields.
 */
function storedAsSent(parsed: { record: DeviceRecord; dropped: unknown[] }): boolean {
  if (parsed.dropped.length > 0) return false;
  const record = parsed.record;
  return record.events === undefined && record.can1 === undefined && record.can2 === undefined;
}

/** Notes why (part of) an item was refused, in its outcome and its device's server log. */
function refuseItem(prepared: PreparedItem, item: IngestItem, reason: string): PreparedItem {
  prepared.outcome.refused.push(reason);
  prepared.serverLog.push(logRow(item.deviceId, item.receivedAt, 'refused', `${item.source} ${item.kind}: ${reason}`));
  return prepared;
}

/**
 * Validates one item at its receipt time (records older than 7 days or more than 5 minutes
 * ahead of it are refused) and writes its records' rows as JSON text; not yet thinned nor
 * deduplicated (that needs the database).
 */
export function prepareItem(item: IngestItem): PreparedItem {
  const nowS = item.receivedAt.getTime() / 1000;
  const outcome: IngestOutcome = { stored: 0, duplicates: 0, thinned: 0, refused: [], dropped: [] };
  const prepared: PreparedItem = {
    item: { deviceId: item.deviceId, basic: item.basic, receivedAt: item.receivedAt, source: item.source },
    outcome,
    records: [],
    diagnostics: null,
    serverLog: [],
  };
  if (item.error !== undefined) return refuseItem(prepared, item, item.error);
  if (item.kind === 'diag') {
    if (!isPlainObject(item.body)) return refuseItem(prepared, item, 'Diagnostics must be a JSON object');
    // Not stored as given: text the database cannot store, or nesting deeper than jsonb should hold.
    const problem = jsonStorageProblem(item.body);
    if (problem) return refuseItem(prepared, item, `Diagnostics: ${problem.message}`);
    const ts =
      typeof item.body.ts === 'number' &&
      Number.isFinite(item.body.ts) &&
      Math.abs(item.body.ts - nowS) < RECORD_LIMITS.maxAgeSeconds
        ? item.body.ts
        : nowS;
    prepared.diagnostics = { device_id: item.deviceId, ts, data: item.body };
    outcome.stored = 1;
    return prepared;
  }
  const records = Array.isArray(item.body) ? item.body : [item.body];
  if (records.length > RECORD_LIMITS.maxRecordsPerMessage) {
    return refuseItem(
      prepared,
      item,
      `A message holds at most ${RECORD_LIMITS.maxRecordsPerMessage} records (${records.length} given)`,
    );
  }
  const rowHead = `{"device_id":${JSON.stringify(item.deviceId)},"received_at":"${item.receivedAt.toISOString()}","source":"${item.source}","ts":`;
  for (const raw of records) {
    const parsed = parseDeviceRecord(raw, nowS);
    if (!parsed.ok) {
      refuseItem(prepared, item, parsed.reason);
      continue;
    }
    if (parsed.dropped.length > 0) {
      const reasons = parsed.dropped.map((d) => d.reason);
      outcome.dropped.push(...reasons);
      prepared.serverLog.push(
        logRow(item.deviceId, item.receivedAt, 'dropped', `Record ${parsed.record.ts}: ${reasons.join('; ')}`),
      );
    }
    const record = parsed.record;
    // The text is the record's own only when the body is the record (not an array holding it).
    const asSent =
      item.text !== undefined && records[0] === item.body && storedAsSent(parsed) && isJsonTextStorableAsIs(item.text);
    const data = asSent ? item.text! : JSON.stringify(record);
    prepared.records.push({ record, row: `${rowHead}${record.ts},"data":${data}}` });
  }
  return prepared;
}

/** One batch of prepared items, with fresh counts (a batch that fails is written again). */
export function assembleBatch(items: PreparedItem[]): PreparedBatch {
  const batch: PreparedBatch = { outcomes: [], candidates: [], diagnostics: [], serverLog: [] };
  items.forEach((p, itemIndex) => {
    batch.outcomes.push({ ...p.outcome });
    for (const { record, row } of p.records)
      batch.candidates.push({ itemIndex, deviceId: p.item.deviceId, record, row });
    if (p.diagnostics) batch.diagnostics.push(p.diagnostics);
    for (const line of p.serverLog) batch.serverLog.push(line);
  });
  return batch;
}

/**
 * Basic thinning: of each listed device's candidates, keeps a record only when it is at least
 * 5 minutes after the newest one kept (or stored before, `newest`). Marks the others thinned.
 */
export function thinBasic(batch: PreparedBatch, basicDevices: Set<string>, newest: Map<string, number>): Candidate[] {
  if (basicDevices.size === 0) return batch.candidates;
  const kept: Candidate[] = [];
  const last = new Map(newest);
  const ordered = [...batch.candidates].sort((a, b) => a.record.ts - b.record.ts);
  const keep = new Set<Candidate>();
  for (const c of ordered) {
    if (!basicDevices.has(c.deviceId)) {
      keep.add(c);
      continue;
    }
    const previous = last.get(c.deviceId);
    if (previous === undefined || c.record.ts >= previous + BASIC_RECORD_INTERVAL_S) {
      keep.add(c);
      last.set(c.deviceId, c.record.ts);
    } else {
      batch.outcomes[c.itemIndex]!.thinned += 1;
    }
  }
  for (const c of batch.candidates) if (keep.has(c)) kept.push(c);
  return kept;
}

export const rowKey = (deviceId: string, ts: number) => `${deviceId}\u0000${ts}`;

/** The events carried by the records actually stored (written with their records). */
export function eventRows(stored: Candidate[]): IngestEventRow[] {
  const events: IngestEventRow[] = [];
  for (const { deviceId, record } of stored) {
    for (const e of record.events ?? []) {
      const lv = typeof e.lv === 'number' ? Math.max(-2_147_483_648, Math.min(2_147_483_647, Math.round(e.lv))) : null;
      const severity = e.severity ?? null;
      // The level of the event as stored (the rounded lv), as a read of the events table gives it.
      events.push({
        device_id: deviceId,
        name: e.name ?? null,
        ts: record.ts,
        topic: e.topic ?? null,
        msg: e.msg,
        lv,
        severity,
        level: eventLevel({ lv, severity }),
      });
    }
  }
  return events;
}

/** Two rollups of the same (device, key, hour) as one; `newer` wins ties of last (as the upsert does). */
export function combineRollups(older: RollupRow, newer: RollupRow): RollupRow {
  const firstNewer = newer.first_ts < older.first_ts;
  const lastNewer = newer.last_ts >= older.last_ts;
  return {
    device_id: older.device_id,
    key: older.key,
    bucket: older.bucket,
    count: older.count + newer.count,
    min: Math.min(older.min, newer.min),
    max: Math.max(older.max, newer.max),
    sum: older.sum + newer.sum,
    first: firstNewer ? newer.first : older.first,
    first_ts: firstNewer ? newer.first_ts : older.first_ts,
    last: lastNewer ? newer.last : older.last,
    last_ts: lastNewer ? newer.last_ts : older.last_ts,
  };
}

interface DeviceDerived {
  /** hour bucket -> key -> rollup */
  rollups: Map<number, Map<string, RollupRow>>;
  latest: Map<string, LatestRow>;
  /** 'bus:pgn:source' -> what was last heard of that group (J1939 frames of can1 and can2). */
  bus: Map<string, BusMessageRow>;
  /** Last contact, epoch seconds (0: none). */
  contact: number;
}

const CAN_BUSES = [
  ['can1', 1],
  ['can2', 2],
] as const;

/** Adds what a record's CAN frames tell (each group's last time, each controller's last DM1); newest wins. */
/** A record's CAN frames and time. */
export type BusRecord = Pick<DeviceRecord, 'ts' | 'can1' | 'can2'>;

function addBusMessages(bus: Map<string, BusMessageRow>, deviceId: string, record: BusRecord): void {
  for (const [key, number] of CAN_BUSES) {
    const frames = record[key];
    if (!frames || frames.length === 0) continue;
    for (const group of busGroupsOf(frames)) {
      const id = `${number}:${group.pgn}:${group.source}`;
      const prev = bus.get(id);
      if (prev && prev.ts > record.ts) continue;
      bus.set(id, {
        device_id: deviceId,
        bus: number,
        pgn: group.pgn,
        source: group.source,
        ts: record.ts,
        dm1: group.dm1,
      });
    }
  }
}

/** What the CAN frames of some records (oldest first) tell, per device: the rows ingest would keep. */
export function busMessageRows(records: readonly { device_id: string; record: BusRecord }[]): BusMessageRow[] {
  const byDevice = new Map<string, Map<string, BusMessageRow>>();
  for (const { device_id, record } of records) {
    let bus = byDevice.get(device_id);
    if (!bus) byDevice.set(device_id, (bus = new Map()));
    addBusMessages(bus, device_id, record);
  }
  return [...byDevice.values()].flatMap((bus) => [...bus.values()]);
}

const STRUCTURED_KEYS = new Set<string>(RECORD_STRUCTURED_KEYS);

/**
 * The rows derived from stored records: hourly rollups (merged), latest values (newest wins)
 * and contact times (latest wins), per device. The writer builds one per batch and keeps those
 * of committed batches in one held set until it writes them together. A row object that has
 * gone into a set through `merge` or `combine` is never changed afterwards (merges make new
 * objects), so a held set stays intact when a transaction writing a combination fails.
 */
export class DerivedRows {
  private readonly devices = new Map<string, DeviceDerived>();
  /** Earliest receipt time (epoch ms) of the messages whose rows are here. */
  earliestReceivedMs = Infinity;

  get isEmpty(): boolean {
    return this.devices.size === 0;
  }

  /** Rollup and latest rows here. */
  rowCount(): number {
    let n = 0;
    for (const d of this.devices.values()) {
      n += d.latest.size + d.bus.size;
      for (const hour of d.rollups.values()) n += hour.size;
    }
    return n;
  }

  /** Devices with rows here. */
  deviceIds(): string[] {
    return [...this.devices.keys()];
  }

  private device(deviceId: string): DeviceDerived {
    let d = this.devices.get(deviceId);
    if (!d) {
      d = { rollups: new Map(), latest: new Map(), bus: new Map(), contact: 0 };
      this.devices.set(deviceId, d);
    }
    return d;
  }

  noteReceived(ms: number): void {
    if (ms < this.earliestReceivedMs) this.earliestReceivedMs = ms;
  }

  addContact(deviceId: string, ts: number): void {
    const d = this.device(deviceId);
    if (ts > d.contact) d.contact = ts;
  }

  /** Adds a stored record's latest values and rollup contributions (rows made here are changed in place). */
  addRecord(deviceId: string, record: DeviceRecord): void {
    const d = this.device(deviceId);
    const ts = record.ts;
    if (record.can1 || record.can2) addBusMessages(d.bus, deviceId, record);
    const bucket = Math.floor(ts / 3600) * 3600;
    let hour = d.rollups.get(bucket);
    if (!hour) {
      hour = new Map();
      d.rollups.set(bucket, hour);
    }
    for (const key in record) {
      if (STRUCTURED_KEYS.has(key)) continue;
      const value = (record as Record<string, unknown>)[key];
      const prev = d.latest.get(key);
      if (!prev) d.latest.set(key, { device_id: deviceId, key, value, ts });
      else if (ts >= prev.ts) {
        prev.value = value;
        prev.ts = ts;
      }
      if (typeof value !== 'number') continue;
      const r = hour.get(key);
      if (!r) {
        hour.set(key, {
          device_id: deviceId,
          key,
          bucket,
          count: 1,
          min: value,
          max: value,
          sum: value,
          first: value,
          last: value,
          first_ts: ts,
          last_ts: ts,
        });
        continue;
      }
      r.count += 1;
      if (value < r.min) r.min = value;
      if (value > r.max) r.max = value;
      r.sum += value;
      if (ts < r.first_ts) {
        r.first = value;
        r.first_ts = ts;
      }
      if (ts >= r.last_ts) {
        r.last = value;
        r.last_ts = ts;
      }
    }
  }

  /** Adds the rows of `newer` (a later batch) to these; `newer` must not be used afterwards. */
  merge(newer: DerivedRows): void {
    this.noteReceived(newer.earliestReceivedMs);
    for (const [deviceId, n] of newer.devices) {
      const d = this.devices.get(deviceId);
      if (!d) {
        this.devices.set(deviceId, n);
        continue;
      }
      if (n.contact > d.contact) d.contact = n.contact;
      for (const [key, row] of n.latest) {
        const prev = d.latest.get(key);
        if (!prev || row.ts >= prev.ts) d.latest.set(key, row);
      }
      for (const [key, row] of n.bus) {
        const prev = d.bus.get(key);
        if (!prev || row.ts >= prev.ts) d.bus.set(key, row);
      }
      for (const [bucket, rows] of n.rollups) {
        const hour = d.rollups.get(bucket);
        if (!hour) {
          d.rollups.set(bucket, rows);
          continue;
        }
        for (const [key, row] of rows) {
          const prev = hour.get(key);
          hour.set(key, prev ? combineRollups(prev, row) : row);
        }
      }
    }
  }

  /** A new set holding `older` and then `newer`; neither is changed. */
  static combine(older: DerivedRows, newer: DerivedRows): DerivedRows {
    const out = new DerivedRows();
    for (const source of [older, newer]) {
      const copy = new DerivedRows();
      copy.earliestReceivedMs = source.earliestReceivedMs;
      for (const [deviceId, d] of source.devices) {
        copy.devices.set(deviceId, {
          contact: d.contact,
          latest: new Map(d.latest),
          bus: new Map(d.bus),
          rollups: new Map([...d.rollups].map(([bucket, rows]) => [bucket, new Map(rows)])),
        });
      }
      out.merge(copy);
    }
    return out;
  }

  /** The rows of some devices only (all when `deviceIds` is absent). */
  rows(deviceIds?: string[]): {
    rollups: RollupRow[];
    latest: LatestRow[];
    bus: BusMessageRow[];
    contacts: Map<string, number>;
  } {
    const rollups: RollupRow[] = [];
    const latest: LatestRow[] = [];
    const bus: BusMessageRow[] = [];
    const contacts = new Map<string, number>();
    for (const deviceId of deviceIds ?? this.devices.keys()) {
      const d = this.devices.get(deviceId);
      if (!d) continue;
      if (d.contact > 0) contacts.set(deviceId, d.contact);
      for (const row of d.latest.values()) latest.push(row);
      for (const row of d.bus.values()) bus.push(row);
      for (const hour of d.rollups.values()) for (const row of hour.values()) rollups.push(row);
    }
    return { rollups, latest, bus, contacts };
  }

  /** The hour buckets of one device's rollups here. */
  buckets(deviceId: string): number[] {
    return [...(this.devices.get(deviceId)?.rollups.keys() ?? [])];
  }

  /** The latest values held for one device. */
  latestOf(deviceId: string): LatestRow[] {
    return [...(this.devices.get(deviceId)?.latest.values() ?? [])];
  }

  /** Forgets one device's rows (its data was deleted or moved). */
  forget(deviceId: string): void {
    this.devices.delete(deviceId);
  }
}
