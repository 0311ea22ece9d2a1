/**
 * Pure part of the writer: turns a batch of ingest items into the rows of one transaction
 * (validated records, events, rollups, latest values, diagnostics, server-log lines).
 */
import { BASIC_RECORD_INTERVAL_S, RECORD_LIMITS, parseDeviceRecord, type DeviceRecord } from '@portal/core';
import type {
  DiagnosticsRow,
  EventRow,
  LatestRow,
  RecordRow,
  RollupRow,
  ServerLogRow,
} from '../modules/telemetry/telemetry.repository';

export type IngestKind = 'data' | 'diag';

export interface IngestItem {
  deviceId: string;
  kind: IngestKind;
  /** The parsed JSON body; absent when `error` says why the message could not be read. */
  body?: unknown;
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
}

export interface PreparedBatch {
  outcomes: IngestOutcome[];
  candidates: Candidate[];
  diagnostics: DiagnosticsRow[];
  serverLog: ServerLogRow[];
}

const STRUCTURED = new Set(['ts', 'events', 'can1', 'can2']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function logRow(deviceId: string, at: Date, kind: string, message: string): ServerLogRow {
  return { device_id: deviceId, ts: at.toISOString(), kind, message: message.slice(0, 2000) };
}

/** Validates every item; records are not yet thinned nor deduplicated. */
export function prepareBatch(items: IngestItem[], now: Date): PreparedBatch {
  const nowS = now.getTime() / 1000;
  const outcomes: IngestOutcome[] = [];
  const candidates: Candidate[] = [];
  const diagnostics: DiagnosticsRow[] = [];
  const serverLog: ServerLogRow[] = [];
  items.forEach((item, itemIndex) => {
    const outcome: IngestOutcome = { stored: 0, duplicates: 0, thinned: 0, refused: [], dropped: [] };
    outcomes.push(outcome);
    const refuse = (reason: string) => {
      outcome.refused.push(reason);
      serverLog.push(logRow(item.deviceId, item.receivedAt, 'refused', `${item.source} ${item.kind}: ${reason}`));
    };
    if (item.error !== undefined) return refuse(item.error);
    if (item.kind === 'diag') {
      if (!isPlainObject(item.body)) return refuse('Diagnostics must be a JSON object');
      const ts =
        typeof item.body.ts === 'number' &&
        Number.isFinite(item.body.ts) &&
        Math.abs(item.body.ts - nowS) < RECORD_LIMITS.maxAgeSeconds
          ? item.body.ts
          : nowS;
      diagnostics.push({ device_id: item.deviceId, ts, data: item.body });
      outcome.stored = 1;
      return;
    }
    const records = Array.isArray(item.body) ? item.body : [item.body];
    if (records.length > RECORD_LIMITS.maxRecordsPerMessage) {
      return refuse(`A message holds at most ${RECORD_LIMITS.maxRecordsPerMessage} records (${records.length} given)`);
    }
    for (const raw of records) {
      const parsed = parseDeviceRecord(raw, nowS);
      if (!parsed.ok) {
        refuse(parsed.reason);
        continue;
      }
      if (parsed.dropped.length > 0) {
        const reasons = parsed.dropped.map((d) => d.reason);
        outcome.dropped.push(...reasons);
        serverLog.push(
          logRow(item.deviceId, item.receivedAt, 'dropped', `Record ${parsed.record.ts}: ${reasons.join('; ')}`),
        );
      }
      candidates.push({ itemIndex, deviceId: item.deviceId, record: parsed.record });
    }
  });
  return { outcomes, candidates, diagnostics, serverLog };
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

export function recordRows(candidates: Candidate[], items: IngestItem[]): RecordRow[] {
  return candidates.map((c) => ({
    device_id: c.deviceId,
    ts: c.record.ts,
    received_at: items[c.itemIndex]!.receivedAt.toISOString(),
    data: c.record,
  }));
}

export const rowKey = (deviceId: string, ts: number) => `${deviceId}\u0000${ts}`;

/** Events, hourly rollups and latest values of the records actually stored. */
export function derivedRows(stored: Candidate[]): { events: EventRow[]; rollups: RollupRow[]; latest: LatestRow[] } {
  const events: EventRow[] = [];
  const rollups = new Map<string, RollupRow>();
  const latest = new Map<string, LatestRow>();
  for (const { deviceId, record } of stored) {
    const ts = record.ts;
    for (const e of record.events ?? []) {
      events.push({
        device_id: deviceId,
        ts,
        topic: e.topic ?? null,
        msg: e.msg,
        lv: typeof e.lv === 'number' ? Math.max(-2_147_483_648, Math.min(2_147_483_647, Math.round(e.lv))) : null,
        severity: e.severity ?? null,
      });
    }
    const bucket = Math.floor(ts / 3600) * 3600;
    for (const [key, value] of Object.entries(record)) {
      if (STRUCTURED.has(key)) continue;
      const lk = `${deviceId}\u0000${key}`;
      const prev = latest.get(lk);
      if (!prev || ts >= prev.ts) latest.set(lk, { device_id: deviceId, key, value, ts });
      if (typeof value !== 'number') continue;
      const rk = `${deviceId}\u0000${key}\u0000${bucket}`;
      const r = rollups.get(rk);
      if (!r) {
        rollups.set(rk, {
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
      r.min = Math.min(r.min, value);
      r.max = Math.max(r.max, value);
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
  return { events, rollups: [...rollups.values()], latest: [...latest.values()] };
}
