/**
 * Telemetry: the ingest writer (group commit behind one bounded queue), the command queue and
 * the read calls (data, diagnostics, server log, rpc, metrics). Devices are reached through the
 * devices service only (key check, plan, contact, pending config, roles).
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  MAX_IMPORT_RECORDS,
  PLANS,
  PREMIUM_TIER_NAME,
  RECORD_LIMITS,
  can,
  parseDeviceRecord,
  planState,
  type Capability,
  type CommandMessage,
  type DeviceRole,
  type PlanName,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, forbidden } from '../../errors';
import { IngestQueue } from '../../ingest/queue';
import {
  derivedRows,
  prepareBatch,
  recordRows,
  rowKey,
  thinBasic,
  type IngestItem,
  type IngestOutcome,
} from '../../ingest/batch';
import * as repo from './telemetry.repository';

/** What telemetry needs of the devices service (structural: the devices service satisfies it). */
export interface TelemetryDevices {
  verifyDeviceKey(id: string, key: string): Promise<boolean>;
  getDevice(
    id: string,
  ): Promise<{ id: string; tier: string; added_ts: number | null; trial_reset_ts?: number | null } | null>;
  markContacts(ids: string[], ts: number): Promise<void>;
  takePendingConfig(id: string): Promise<Record<string, unknown> | null>;
  roleOf(userId: string, deviceId: string): Promise<DeviceRole | null>;
  checkSetupPassword(deviceId: string, password: string): Promise<boolean>;
}

/** Where command messages go: the embedded broker or the external broker connection. */
export interface CommandSink {
  publish(deviceId: string, message: CommandMessage): Promise<void>;
  /** True/false when the sink knows whether the device is connected; undefined when it cannot tell. */
  isOnline(deviceId: string): boolean | undefined;
}

export interface TelemetryOptions {
  queueCapacity: number;
  batchSize: number;
  /** Sent, unacknowledged commands are sent again after this long. */
  resendAfterMs: number;
  /** Without a command queued here, a device's commands and pending config are looked up at most this often. */
  commandCheckIntervalMs: number;
  /** How often the retention job runs (0: never; tests call runRetention). */
  retentionIntervalMs: number;
  /** Rows deleted per statement by retention, so ingest never waits long behind it. */
  retentionBatchSize: number;
}

export const DEFAULT_TELEMETRY_OPTIONS: TelemetryOptions = {
  queueCapacity: 5000,
  batchSize: 500,
  resendAfterMs: 30_000,
  commandCheckIntervalMs: 5000,
  retentionIntervalMs: 3_600_000,
  retentionBatchSize: 5000,
};

export const INVALID_SETUP_PASSWORD = 'Invalid setup password.';
/** Records per page when exporting. */
export const EXPORT_PAGE_SIZE = 1000;

export interface ExportQuery {
  fromTime?: number | undefined;
  toTime?: number | undefined;
  dataKeys?: string | undefined;
  format?: 'csv' | 'json' | undefined;
}

export interface RetentionResult {
  deviceId: string;
  cutoff: number;
  records: number;
  events: number;
  diagnostics: number;
  rollups: number;
}

/** A CSV cell: quoted when needed; text that a spreadsheet would run as a formula gets a leading quote. */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const splitKeys = (text: string | undefined): string[] | null => {
  const keys = text
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return keys && keys.length > 0 ? keys : null;
};

export const DEVICE_NOT_FOUND = 'Device not found';
const notFound = () => new AppError(404, 'NOT_FOUND', DEVICE_NOT_FOUND);

export interface DataQuery {
  dataPoints?: number | undefined;
  dataKeys?: string | undefined;
  fromTime?: number | undefined;
  toTime?: number | undefined;
  relative?: number | undefined;
  downsample?: string | undefined;
}

export interface DataPoint {
  v: unknown;
  ts: number;
}

export interface DataResponse {
  deviceid: string;
  data: Record<string, DataPoint[]>;
  events: { ts: number; topic: string | null; msg: string; lv: number | null; severity: string | null }[];
  /** Bucket width in seconds when downsampled. */
  bucketSeconds?: number;
}

export interface CommandView {
  commandID: number;
  method: string;
  args: unknown;
  state: string;
  createdAt: string;
  sentAt: string | null;
  ackedAt: string | null;
  createdBy: string | null;
}

export interface MetricsQuery {
  currentStartTime: number;
  currentEndTime: number;
  previousStartTime?: number | undefined;
  previousEndTime?: number | undefined;
  includeLatestData?: boolean | undefined;
}

type MetricSet = Record<
  string,
  { min: number; max: number; avg: number; sum: number; diff: number; acc: number; count: number }
>;

const MAX_DATA_POINTS = 10_000;
const DEFAULT_DATA_POINTS = 600;
/** Time used as "no upper bound" (year 33658). */
const FAR_FUTURE = 1e12;

const floorHour = (t: number) => Math.floor(t / 3600) * 3600;

/** A bucket width: at least 1 s; widths of an hour or more are whole hours (read from rollups). */
export function bucketWidth(rangeSeconds: number, dataPoints: number): number {
  const raw = Math.max(1, Math.ceil(rangeSeconds / Math.max(1, dataPoints)));
  return raw >= 3600 ? Math.ceil(raw / 3600) * 3600 : raw;
}

export function createTelemetryService(deps: {
  db: Db;
  clock: Clock;
  devices: TelemetryDevices;
  log: FastifyBaseLogger;
  options?: Partial<TelemetryOptions>;
}) {
  const { db, clock, devices, log } = deps;
  const options = { ...DEFAULT_TELEMETRY_OPTIONS, ...deps.options };
  let sink: CommandSink | null = null;
  /** Devices with a command queued by this process since their last delivery. */
  const dirty = new Set<string>();
  const lastCheck = new Map<string, number>();

  async function writeBatch(items: IngestItem[]): Promise<IngestOutcome[]> {
    const now = clock.now();
    const batch = prepareBatch(items, now);
    const basic = new Set(items.filter((i) => i.basic).map((i) => i.deviceId));
    const contacted = new Set<string>();
    await db.transaction(async (tx) => {
      const newest = basic.size > 0 ? await repo.newestRecordTimes(tx, [...basic]) : new Map<string, number>();
      const kept = thinBasic(batch, basic, newest);
      const inserted = new Set(
        (await repo.insertRecords(tx, recordRows(kept, items))).map((r) => rowKey(r.device_id, r.ts)),
      );
      const stored = kept.filter((c) => {
        const fresh = inserted.delete(rowKey(c.deviceId, c.record.ts));
        batch.outcomes[c.itemIndex]![fresh ? 'stored' : 'duplicates'] += 1;
        contacted.add(c.deviceId);
        return fresh;
      });
      const derived = derivedRows(stored);
      await repo.insertEvents(tx, derived.events);
      await repo.upsertRollups(tx, derived.rollups);
      await repo.upsertLatest(tx, derived.latest);
      await repo.insertDiagnostics(tx, batch.diagnostics);
      await repo.insertServerLog(tx, batch.serverLog);
    });
    // One contact update per batch (not per message): the devices whose records arrived, stored or resent.
    await devices.markContacts([...contacted], now.getTime() / 1000);
    return batch.outcomes;
  }

  const queue = new IngestQueue<IngestItem, IngestOutcome>({
    capacity: options.queueCapacity,
    batchSize: options.batchSize,
    process: writeBatch,
    onBatchError: (error, size) =>
      log.warn({ err: error, size }, 'Ingest batch failed; retrying its messages one by one'),
  });

  /** The saved device script waiting for delivery (the device-config module provides it). */
  let scriptSource: ((deviceId: string) => Promise<string | null>) | null = null;

  /** Commands to deliver now, the pending config and script; null when there is nothing. */
  async function takeDelivery(deviceId: string, markDelivered: boolean): Promise<CommandMessage | null> {
    dirty.delete(deviceId);
    lastCheck.set(deviceId, Date.now());
    const now = clock.now();
    const commands = await repo.takeCommandsToSend(db, deviceId, now, new Date(now.getTime() - options.resendAfterMs));
    if (markDelivered)
      await repo.markCommandsDelivered(
        db,
        deviceId,
        commands.map((c) => c.id),
        now,
      );
    const config = await devices.takePendingConfig(deviceId);
    const script = scriptSource ? await scriptSource(deviceId) : null;
    if (commands.length === 0 && !config && !script) return null;
    return {
      commands: commands.map((c) => ({ id: c.id, method: c.method, ...(c.args === null ? {} : { args: c.args }) })),
      ...(config ? { config } : {}),
      ...(script ? { script } : {}),
    };
  }

  async function pushToDevice(deviceId: string): Promise<void> {
    const target = sink;
    if (!target) return;
    const message = await takeDelivery(deviceId, false);
    if (!message) return;
    try {
      await target.publish(deviceId, message);
    } catch (error) {
      await repo.requeueCommands(
        db,
        message.commands.map((c) => c.id),
      );
      throw error;
    }
  }

  async function accessRole(userId: string, deviceId: string): Promise<DeviceRole> {
    const role = await devices.roleOf(userId, deviceId);
    if (role === null) throw notFound();
    return role;
  }

  async function requireCapability(userId: string, deviceId: string, capability: Capability): Promise<DeviceRole> {
    const role = await accessRole(userId, deviceId);
    if (!can(role, capability)) throw forbidden();
    return role;
  }

  /** The plan whose storage days apply: Hosted, Trial (also a device nobody added yet) or Basic. */
  function planOf(
    device: { tier: string; added_ts: number | null; trial_reset_ts?: number | null },
    nowMs: number,
  ): PlanName {
    if (device.tier === PREMIUM_TIER_NAME) return 'Hosted';
    if (device.added_ts === null) return 'Trial';
    return (
      planState(
        { tier: { name: device.tier }, added_ts: device.added_ts, trial_reset_ts: device.trial_reset_ts ?? null },
        nowMs,
      ).plan ?? 'Basic'
    );
  }

  /** ADMIN of the device and its setup password; 404 stranger, 403 otherwise. */
  async function requireAdminWithPassword(userId: string, deviceId: string, setupPassword: string): Promise<void> {
    if ((await accessRole(userId, deviceId)) !== 'ADMIN') throw forbidden();
    if (!(await devices.checkSetupPassword(deviceId, setupPassword)))
      throw new AppError(403, 'FORBIDDEN', INVALID_SETUP_PASSWORD);
  }

  let retentionTimer: NodeJS.Timeout | null = null;
  let retentionRun: Promise<unknown> | null = null;

  async function runRetention(now: Date): Promise<RetentionResult[]> {
    const results: RetentionResult[] = [];
    const limit = options.retentionBatchSize;
    for (const deviceId of await repo.devicesWithData(db)) {
      const device = await devices.getDevice(deviceId);
      if (!device) continue;
      const days = PLANS[planOf(device, now.getTime())].dataStorageDays;
      const cutoff = now.getTime() / 1000 - days * 86_400;
      const result: RetentionResult = { deviceId, cutoff, records: 0, events: 0, diagnostics: 0, rollups: 0 };
      const tables: [repo.RetentionTable, 'records' | 'events' | 'diagnostics' | 'rollups'][] = [
        ['records', 'records'],
        ['events', 'events'],
        ['diagnostics', 'diagnostics'],
        ['rollup_hour', 'rollups'],
      ];
      for (const [table, field] of tables) {
        // Bounded statements: ingest's transactions get the tables between two batches.
        for (;;) {
          const n = await repo.deleteOlderThan(db, table, deviceId, cutoff, limit);
          result[field] += n;
          if (n < limit) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      if (result.records + result.events + result.diagnostics + result.rollups > 0) {
        const when = new Date(cutoff * 1000).toISOString();
        const message = `retention: deleted ${result.records} records older than ${when} (${days} days), ${result.events} events, ${result.diagnostics} diagnostics, ${result.rollups} hourly rollups`;
        log.info({ deviceId }, message);
        await repo.insertServerLog(db, [{ device_id: deviceId, ts: now.toISOString(), kind: 'retention', message }]);
        results.push(result);
      }
    }
    return results;
  }

  async function logLine(deviceId: string, kind: string, message: string): Promise<void> {
    await repo.insertServerLog(db, [
      { device_id: deviceId, ts: clock.now().toISOString(), kind, message: message.slice(0, 2000) },
    ]);
  }

  const toView = (c: repo.CommandRow): CommandView => ({
    commandID: c.id,
    method: c.method,
    args: c.args,
    state: c.state,
    createdAt: new Date(c.created_at).toISOString(),
    sentAt: c.sent_at ? new Date(c.sent_at).toISOString() : null,
    ackedAt: c.acked_at ? new Date(c.acked_at).toISOString() : null,
    createdBy: c.created_by,
  });

  return {
    options,

    now: (): Date => clock.now(),

    /** Where pending device scripts come from: taken (and marked delivered) at the next contact. */
    setScriptSource(next: ((deviceId: string) => Promise<string | null>) | null): void {
      scriptSource = next;
    },

    setCommandSink(next: CommandSink | null): void {
      sink = next;
    },

    // ------------------------------------------------------------ ingest

    /** Device credentials check (constant time in the devices service). */
    verifyDevice(deviceId: string, key: string): Promise<boolean> {
      return devices.verifyDeviceKey(deviceId, key);
    },

    /** Whether ingest for this device is thinned (Basic plan), or null for an unknown device. */
    async ingestPlan(deviceId: string): Promise<{ basic: boolean } | null> {
      const device = await devices.getDevice(deviceId);
      if (!device) return null;
      if (device.tier === PREMIUM_TIER_NAME || device.added_ts === null) return { basic: false };
      const state = planState(
        { tier: { name: device.tier }, added_ts: device.added_ts, trial_reset_ts: device.trial_reset_ts ?? null },
        clock.now().getTime(),
      );
      return { basic: state.plan === 'Basic' };
    },

    /** Queues a message for the writer; resolves once it is stored (or refused and logged). */
    async ingest(item: IngestItem): Promise<IngestOutcome> {
      return queue.push(item);
    },

    /** After an MQTT data publish: delivers commands and pending config when there may be some. */
    afterContact(deviceId: string): void {
      if (!sink) return;
      const checked = lastCheck.get(deviceId);
      if (!dirty.has(deviceId) && checked !== undefined && Date.now() - checked < options.commandCheckIntervalMs)
        return;
      pushToDevice(deviceId).catch((error: unknown) => log.warn({ err: error, deviceId }, 'Command delivery failed'));
    },

    /** HTTP ingest answer: commands (marked delivered: the response is the delivery) and pending config. */
    async httpDelivery(deviceId: string): Promise<CommandMessage> {
      return (await takeDelivery(deviceId, true)) ?? { commands: [] };
    },

    async acknowledge(deviceId: string, body: unknown): Promise<void> {
      const list = Array.isArray(body) ? body : [body];
      const ids = list
        .map((a) => (typeof a === 'object' && a !== null ? (a as { id?: unknown }).id : a))
        .filter((id): id is number => typeof id === 'number' && Number.isInteger(id) && Math.abs(id) < 2_147_483_648);
      if (ids.length === 0) {
        await logLine(deviceId, 'refused', 'ack: expected {id: commandId}');
        return;
      }
      await repo.markCommandsDelivered(db, deviceId, ids, clock.now());
    },

    /** Writes one line of the device's server log now. */
    log: logLine,

    queueDepth(): number {
      return queue.length;
    },

    /** Messages queued or being written, not yet acknowledged. */
    pendingWrites(): number {
      return queue.pending;
    },

    async close(): Promise<void> {
      if (retentionTimer) clearInterval(retentionTimer);
      retentionTimer = null;
      await queue.close();
      await retentionRun?.catch(() => undefined);
    },

    // ------------------------------------------------------------ retention

    /** Deletes data older than each device's plan keeps it (records, events, diagnostics, rollups). */
    runRetention,

    /** Starts the periodic retention job (cleared by close). */
    startRetention(): void {
      if (retentionTimer || options.retentionIntervalMs <= 0) return;
      retentionTimer = setInterval(() => {
        if (retentionRun) return;
        retentionRun = runRetention(clock.now())
          .catch((error: unknown) => log.error({ err: error }, 'retention failed'))
          .finally(() => (retentionRun = null));
      }, options.retentionIntervalMs);
      retentionTimer.unref();
    },

    // ------------------------------------------------------------ delete, transfer, export, import

    /** The newest value of every key of a device, with its time. */
    async latest(deviceId: string): Promise<Record<string, DataPoint>> {
      const out = Object.create(null) as Record<string, DataPoint>;
      for (const row of await repo.selectLatest(db, deviceId)) out[row.key] = { v: row.value, ts: row.ts };
      return { ...out };
    },

    /** ADMIN with the setup password: deletes the device's data (not its server log). */
    async deleteData(userId: string, deviceId: string, setupPassword: string) {
      await requireAdminWithPassword(userId, deviceId, setupPassword);
      const counts = await db.transaction((tx) => repo.deleteDeviceData(tx, deviceId));
      await logLine(
        deviceId,
        'data-deleted',
        `Data deleted by user ${userId}: ${counts.records} records, ${counts.events} events, ${counts.diagnostics} diagnostics, ${counts.rollups} hourly rollups, ${counts.latest} latest values`,
      );
      return { deviceid: deviceId, deleted: counts };
    },

    /** ADMIN of both devices, with the source's setup password: moves the data in one transaction. */
    async transferData(userId: string, deviceId: string, setupPassword: string, targetId: string) {
      if ((await accessRole(userId, deviceId)) !== 'ADMIN') throw forbidden();
      if ((await accessRole(userId, targetId)) !== 'ADMIN') throw forbidden();
      if (targetId === deviceId) throw new AppError(400, 'BAD_REQUEST', 'targetDeviceid must be another device');
      if (!(await devices.checkSetupPassword(deviceId, setupPassword)))
        throw new AppError(403, 'FORBIDDEN', INVALID_SETUP_PASSWORD);
      const counts = await db.transaction((tx) => repo.moveDeviceData(tx, deviceId, targetId));
      const summary = `${counts.records} records, ${counts.events} events, ${counts.diagnostics} diagnostics`;
      await logLine(deviceId, 'data-transferred', `Data transferred to ${targetId} by user ${userId}: ${summary}`);
      await logLine(targetId, 'data-transferred', `Data transferred from ${deviceId} by user ${userId}: ${summary}`);
      return { deviceid: deviceId, targetDeviceid: targetId, moved: counts };
    },

    /**
     * Any role: the records of a time range as CSV (ts and one column per key) or JSON, read
     * from the database a page at a time while the answer streams.
     */
    async exportData(
      userId: string,
      deviceId: string,
      q: ExportQuery,
    ): Promise<{ contentType: string; filename: string; body: AsyncIterable<string> }> {
      await accessRole(userId, deviceId);
      const from = q.fromTime ?? 0;
      const to = q.toTime ?? FAR_FUTURE;
      if (from > to) throw new AppError(400, 'BAD_REQUEST', 'fromTime must not be after toTime');
      const wanted = splitKeys(q.dataKeys);
      const format = q.format ?? 'csv';
      const columns = wanted ?? (await repo.selectLatest(db, deviceId)).map((l) => l.key);
      async function* pages(): AsyncGenerator<{ ts: number; data: Record<string, unknown> }[]> {
        let range = { from, to, inclusive: true };
        for (;;) {
          const page = await repo.selectRecordPage(db, deviceId, range, EXPORT_PAGE_SIZE);
          if (page.length > 0) yield page;
          if (page.length < EXPORT_PAGE_SIZE) return;
          range = { from: page[page.length - 1]!.ts, to, inclusive: false };
        }
      }
      async function* csv(): AsyncGenerator<string> {
        yield `${['ts', ...columns].map(csvCell).join(',')}\r\n`;
        for await (const page of pages()) {
          yield page
            .map(
              (r) =>
                [r.ts, ...columns.map((k) => (Object.prototype.hasOwnProperty.call(r.data, k) ? r.data[k] : undefined))]
                  .map(csvCell)
                  .join(',') + '\r\n',
            )
            .join('');
        }
      }
      async function* json(): AsyncGenerator<string> {
        yield `{"deviceid":${JSON.stringify(deviceId)},"records":[`;
        let first = true;
        for await (const page of pages()) {
          const parts = page.map((r) => {
            const record = wanted
              ? Object.fromEntries(Object.entries(r.data).filter(([k]) => k === 'ts' || wanted.includes(k)))
              : r.data;
            return JSON.stringify(record);
          });
          yield (first ? '' : ',') + parts.join(',');
          first = false;
        }
        yield ']}';
      }
      const stamp = clock.now().toISOString().slice(0, 10);
      return format === 'json'
        ? { contentType: 'application/json; charset=utf-8', filename: `${deviceId}-${stamp}.json`, body: json() }
        : { contentType: 'text/csv; charset=utf-8', filename: `${deviceId}-${stamp}.csv`, body: csv() };
    },

    /**
     * editDeviceSettings: stores records through the ingest writer (rollups and latest values
     * stay right). Each record is checked like a device's; refused ones are listed by index.
     */
    async importRecords(userId: string, deviceId: string, records: unknown[]) {
      await requireCapability(userId, deviceId, 'editDeviceSettings');
      if (records.length > MAX_IMPORT_RECORDS)
        throw new AppError(
          400,
          'BAD_REQUEST',
          `At most ${MAX_IMPORT_RECORDS} records per import (${records.length} given)`,
        );
      const nowS = clock.now().getTime() / 1000;
      const refused: { index: number; reason: string }[] = [];
      const accepted: unknown[] = [];
      records.forEach((raw, index) => {
        const parsed = parseDeviceRecord(raw, nowS);
        if (parsed.ok) accepted.push(parsed.record);
        else refused.push({ index, reason: parsed.reason });
      });
      const plan = await this.ingestPlan(deviceId);
      let imported = 0;
      let duplicates = 0;
      let thinned = 0;
      for (let i = 0; i < accepted.length; i += RECORD_LIMITS.maxRecordsPerMessage) {
        const outcome = await queue.push({
          deviceId,
          kind: 'data',
          body: accepted.slice(i, i + RECORD_LIMITS.maxRecordsPerMessage),
          basic: plan?.basic ?? false,
          receivedAt: clock.now(),
          source: 'import',
        });
        imported += outcome.stored;
        duplicates += outcome.duplicates;
        thinned += outcome.thinned;
      }
      if (imported > 0) await logLine(deviceId, 'import', `${imported} records imported by user ${userId}`);
      return { deviceid: deviceId, imported, duplicates, thinned, refused };
    },

    // ------------------------------------------------------------ reads

    async data(userId: string, deviceId: string, q: DataQuery): Promise<DataResponse> {
      await accessRole(userId, deviceId);
      const nowS = clock.now().getTime() / 1000;
      const dataPoints = Math.min(MAX_DATA_POINTS, Math.max(1, Math.floor(q.dataPoints ?? DEFAULT_DATA_POINTS)));
      const keys = q.dataKeys
        ? q.dataKeys
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean)
        : null;
      let from = q.fromTime ?? 0;
      let to = q.toTime ?? FAR_FUTURE;
      if (q.relative !== undefined) {
        from = nowS - q.relative / 1000;
        to = q.toTime ?? FAR_FUTURE;
      }
      if (from > to) throw new AppError(400, 'BAD_REQUEST', 'fromTime must not be after toTime');
      const range = { from, to };
      // No prototype: a device key may be called 'constructor' or 'toString'.
      const data = Object.create(null) as Record<string, DataPoint[]>;
      let bucketSeconds: number | undefined;
      const ds = q.downsample?.trim().toLowerCase();
      if (ds && ds !== 'false' && ds !== '0') {
        if (ds === 'true' || ds === 'auto') {
          // An open range reads the last 24 hours.
          if (q.fromTime === undefined && q.relative === undefined) range.from = nowS - 86_400;
          if (range.to === FAR_FUTURE) range.to = nowS;
          bucketSeconds = bucketWidth(range.to - range.from, dataPoints);
        } else {
          const n = Number(ds);
          if (!Number.isFinite(n) || n < 1)
            throw new AppError(400, 'BAD_REQUEST', 'downsample: expected true or a bucket width in seconds');
          bucketSeconds = n >= 3600 ? Math.ceil(n / 3600) * 3600 : Math.ceil(n);
        }
        const rows =
          bucketSeconds >= 3600
            ? await repo.selectRollupBuckets(db, deviceId, range, bucketSeconds, dataPoints, keys)
            : await repo.selectRecordBuckets(db, deviceId, range, bucketSeconds, dataPoints, keys);
        for (const row of rows) (data[row.key] ??= []).push({ v: row.v, ts: row.bucket });
      } else {
        const rows = await repo.selectRecords(db, deviceId, range, dataPoints, keys);
        for (const row of rows) {
          for (const [key, v] of Object.entries(row.data)) {
            if (key === 'ts' || key === 'events') continue;
            if (keys && !keys.includes(key)) continue;
            (data[key] ??= []).push({ v, ts: row.ts });
          }
        }
      }
      const events = (await repo.selectEvents(db, deviceId, range, dataPoints)).map((e) => ({
        ts: e.ts,
        topic: e.topic,
        msg: e.msg,
        lv: e.lv,
        severity: e.severity,
      }));
      return { deviceid: deviceId, data, events, ...(bucketSeconds !== undefined ? { bucketSeconds } : {}) };
    },

    async diagnostics(userId: string, deviceId: string, dataPoints: number | undefined) {
      await requireCapability(userId, deviceId, 'diagnostics');
      const limit = Math.min(MAX_DATA_POINTS, Math.max(1, Math.floor(dataPoints ?? DEFAULT_DATA_POINTS)));
      const rows = await repo.selectDiagnostics(db, deviceId, limit);
      return { deviceid: deviceId, diagnostics: rows.map((r) => ({ ts: r.ts, data: r.data })) };
    },

    async serverLog(userId: string, deviceId: string, limit: number | undefined) {
      await requireCapability(userId, deviceId, 'serverLog');
      const rows = await repo.selectServerLog(
        db,
        deviceId,
        Math.min(MAX_DATA_POINTS, Math.max(1, Math.floor(limit ?? 1000))),
      );
      return {
        deviceid: deviceId,
        entries: rows.map((r) => ({ id: r.id, ts: new Date(r.ts).getTime() / 1000, kind: r.kind, message: r.message })),
      };
    },

    // ------------------------------------------------------------ commands

    async listCommands(userId: string, deviceId: string, dataPoints: number | undefined) {
      await accessRole(userId, deviceId);
      const rows = await repo.selectCommands(
        db,
        deviceId,
        Math.min(MAX_DATA_POINTS, Math.max(1, Math.floor(dataPoints ?? 100))),
      );
      return { deviceid: deviceId, commands: rows.map(toView) };
    },

    async queueCommand(userId: string, deviceId: string, method: string, args: unknown): Promise<CommandView> {
      await requireCapability(userId, deviceId, method === 'Admin.Trigger' ? 'triggers' : 'editDeviceSettings');
      const row = await repo.insertCommand(db, { deviceId, method, args, createdAt: clock.now(), createdBy: userId });
      await logLine(deviceId, 'command', `Command ${row.id} ${method} queued`);
      dirty.add(deviceId);
      // An online device gets it at once; an offline one at its next contact.
      if (sink && sink.isOnline(deviceId) !== false) {
        pushToDevice(deviceId).catch((error: unknown) => log.warn({ err: error, deviceId }, 'Command delivery failed'));
      }
      return toView(row);
    },

    async cancelCommand(
      userId: string,
      deviceId: string,
      commandId: number,
    ): Promise<{ commandID: number; state: 'cancelled' }> {
      const role = await accessRole(userId, deviceId);
      const command = (await repo.selectCommands(db, deviceId, MAX_DATA_POINTS)).find((c) => c.id === commandId);
      if (!command) throw new AppError(404, 'NOT_FOUND', 'Command not found');
      if (!can(role, command.method === 'Admin.Trigger' ? 'triggers' : 'editDeviceSettings')) throw forbidden();
      if (!(await repo.cancelCommand(db, deviceId, commandId)))
        throw new AppError(409, 'CONFLICT', `Command ${commandId} is ${command.state} and can no longer be cancelled`);
      return { commandID: commandId, state: 'cancelled' };
    },

    // ------------------------------------------------------------ metrics

    async metrics(userId: string, deviceId: string, q: MetricsQuery) {
      await accessRole(userId, deviceId);
      const period = async (start: number, end: number): Promise<MetricSet> => {
        const rows = await repo.selectRollupAggregates(db, deviceId, { from: floorHour(start), to: floorHour(end) });
        const out: MetricSet = {};
        for (const r of rows) {
          out[r.key] = {
            min: r.min,
            max: r.max,
            avg: r.count > 0 ? r.sum / r.count : 0,
            sum: r.sum,
            diff: r.last - r.first,
            acc: r.last,
            count: r.count,
          };
        }
        return out;
      };
      const current = await period(q.currentStartTime, q.currentEndTime);
      const previous =
        q.previousStartTime !== undefined && q.previousEndTime !== undefined
          ? await period(q.previousStartTime, q.previousEndTime)
          : {};
      const latest = q.includeLatestData
        ? Object.fromEntries((await repo.selectLatest(db, deviceId)).map((l) => [l.key, { v: l.value, ts: l.ts }]))
        : undefined;
      return {
        deviceid: deviceId,
        currentPeriod: {
          startTime: floorHour(q.currentStartTime),
          endTime: floorHour(q.currentEndTime),
          data: current,
        },
        previousPeriod: { data: previous },
        ...(latest ? { latestData: latest, lastKnownData: latest } : {}),
      };
    },
  };
}

export type TelemetryService = ReturnType<typeof createTelemetryService>;
