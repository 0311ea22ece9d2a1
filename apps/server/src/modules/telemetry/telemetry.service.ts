/**
 * Telemetry: a device's data. Ingest goes through the writer (ingest-writer.ts); this module
 * answers the reads (data, latest values, diagnostics, server log, metrics), deletes, transfers,
 * exports and imports data, and runs retention. Devices are reached through the devices
 * service, access through the one gate, deliveries through the delivery module.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  DEFAULT_SERVER_LOG_ENTRIES,
  MAX_IMPORT_RECORDS,
  RECORD_LIMITS,
  clampDataPoints,
  PLANS,
  dataPlan,
  parseDeviceRecord,
  serverLogUnavailableMessage,
  type DataPoint,
  type DataQuery,
  type ExportQuery,
  metricsPeriods,
  intermediatePeriods,
  type MetricSet,
  type MetricsPeriod,
  type MetricsQuery,
  type MetricsResponse,
  type ServerLogQuery,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError } from '../../errors';
import type { IngestItem, IngestOutcome } from '../../ingest/batch';
import type { AccessService } from '../access/access.service';
import type { DeliveryService } from '../delivery/delivery.service';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { DeviceRegistry } from '../devices/devices.registry';
import * as repo from './telemetry-reads.repository';
import * as moves from './telemetry-moves.repository';
import { dataResponseJson, recordPointsJson } from './telemetry.serialize';
import { createIngestWriter, DEFAULT_WRITER_OPTIONS, type StoredRecord, type WriterOptions } from './ingest-writer';
import { createRetention, type RetentionOptions, type RetentionResult } from './retention';
import {
  deviceDataVersions,
  groupDataParts,
  groupDataQuestion,
  POSITION_KEYS,
  type GroupDataQuery,
} from './group-data.repository';
import { createGroupDataCache } from './group-data-cache';
import { groupKeyAggregates, type GroupKeyAggregate, type HourPeriod } from './group-metrics.repository';
import { busStateView, loadJ1939Reference } from './j1939-reference';
import { exportFile, FAR_FUTURE, splitKeys, type ExportFile } from './export';
import { DOWNSAMPLE_MAX_WIDTH, bucketSource, bucketWidth, bucketsByKey, requestedWidth } from './downsample';

export type { RetentionResult } from './retention';
export type { GroupDataQuery } from './group-data.repository';
export type { GroupKeyAggregate, HourPeriod } from './group-metrics.repository';
export { csvCell, EXPORT_PAGE_SIZE } from './export';
export { bucketSource, bucketWidth } from './downsample';

/** What telemetry needs of the device registry. */
export type TelemetryDevices = Pick<
  DeviceRegistry,
  'verifyDeviceKey' | 'getDevice' | 'checkSetupPassword' | 'markContacts' | 'reportFirmware' | 'reportIntervals'
>;

export type TelemetryOptions = WriterOptions & RetentionOptions;

export const DEFAULT_TELEMETRY_OPTIONS: TelemetryOptions = {
  ...DEFAULT_WRITER_OPTIONS,
  retentionIntervalMs: 3_600_000,
  retentionBatchSize: 5000,
};

/** The group data parts kept between calls, in bytes: 10,000 devices' parts are about 8 MB. */
export const GROUP_DATA_CACHE_BYTES = 64 * 1024 * 1024;

export const INVALID_SETUP_PASSWORD = 'Invalid setup password.';

export function createTelemetryService(deps: {
  db: Db;
  clock: Clock;
  devices: TelemetryDevices;
  access: AccessService;
  delivery: DeliveryService;
  deviceLog: DeviceLogService;
  log: FastifyBaseLogger;
  options?: Partial<TelemetryOptions>;
  /** Told the records ingest stored, after each commit (alert detection). */
  onStored?: (stored: StoredRecord[]) => void;
}) {
  const { db, clock, devices, access, delivery, deviceLog, log } = deps;
  const options: TelemetryOptions = { ...DEFAULT_TELEMETRY_OPTIONS, ...deps.options };
  const writer = createIngestWriter({
    db,
    clock,
    log,
    devices,
    deviceLog,
    options,
    ...(deps.onStored ? { onStored: deps.onStored } : {}),
  });
  const groupDataCache = createGroupDataCache(GROUP_DATA_CACHE_BYTES);
  const retention = createRetention({
    db,
    clock,
    log,
    deviceLog,
    devices,
    expireCommands: (now) => delivery.expireCommands(now),
    options,
  });

  /** ADMIN of the device and its setup password; 404 stranger, 403 otherwise. */
  async function requireAdminWithPassword(userId: string, deviceId: string, setupPassword: string): Promise<void> {
    await access.authorize(userId, deviceId, 'adminSettings');
    if (!(await devices.checkSetupPassword(deviceId, setupPassword)))
      throw new AppError(403, 'FORBIDDEN', INVALID_SETUP_PASSWORD);
  }

  /** Whether ingest for this device is thinned (Basic plan), or null for an unknown device. */
  async function ingestPlan(deviceId: string): Promise<{ basic: boolean } | null> {
    const device = await devices.getDevice(deviceId);
    if (!device) return null;
    return { basic: dataPlan(device, clock.now().getTime()) === 'Basic' };
  }

  return {
    options,

    now: (): Date => clock.now(),

    // ------------------------------------------------------------ ingest

    /** Device credentials check (constant time in the devices service). */
    verifyDevice(deviceId: string, key: string): Promise<boolean> {
      return devices.verifyDeviceKey(deviceId, key);
    },

    ingestPlan,

    /** Queues a message for the writer; resolves once it is stored (or refused and logged). */
    ingest(item: IngestItem): Promise<IngestOutcome> {
      return writer.ingest(item);
    },

    /** Writes one line of the device's server log now. */
    log: (deviceId: string, kind: string, message: string) => deviceLog.write(deviceId, kind, message),

    queueDepth: () => writer.queueDepth(),

    /** Messages queued or being written, not yet acknowledged. */
    pendingWrites: () => writer.pendingWrites(),

    /** Start-up, before ingest starts: rebuilds derived rows a stopped process held back. */
    recoverDerived: () => writer.recoverDerived(),

    async close(): Promise<void> {
      await retention.close();
      await writer.close();
    },

    // ------------------------------------------------------------ retention

    /**
     * Deletes data older than each device's plan keeps it (records, events, diagnostics, rollups);
     * first expires unacknowledged commands older than COMMAND_EXPIRY_S.
     */
    runRetention: (now: Date): Promise<RetentionResult[]> => retention.run(now),

    /** Starts the periodic retention job (stopped by close). */
    startRetention: () => retention.start(),

    // ------------------------------------------------------------ delete, transfer, export, import

    /**
     * Seconds between the server's clock and the device's at its newest record: when the server
     * received it minus the time the device gave it (null without records).
     */
    async clockDifference(deviceId: string): Promise<number | null> {
      const newest = await repo.newestRecordReceipt(db, deviceId);
      return newest ? Math.round(newest.received - newest.ts) : null;
    },

    /** The newest value of every key of a device, with its time. */
    async latest(deviceId: string): Promise<Record<string, DataPoint>> {
      // Values the writer holds back are newer than or as new as the stored ones (read them first).
      const pending = writer.heldLatest(deviceId);
      const rows = await repo.selectLatest(db, deviceId);
      const out = Object.create(null) as Record<string, DataPoint>;
      for (const row of rows) out[row.key] = { v: row.value, ts: row.ts };
      for (const row of pending) {
        if (!(row.key in out) || row.ts >= out[row.key]!.ts) out[row.key] = { v: row.value, ts: row.ts };
      }
      if (pending.length === 0) return { ...out };
      const keys = Object.keys(out).sort();
      return Object.fromEntries(keys.map((key) => [key, out[key]!]));
    },

    /**
     * Each device's part of the group data answer (group-data.repository.ts groupDataParts), in
     * the order given (no access check here: the caller passes the devices the user may see).
     * Latest values the writer holds back replace older stored ones.
     */
    async groupDataParts(deviceIds: readonly string[], q: GroupDataQuery): Promise<Buffer[]> {
      // Only the parts of devices whose data changed since they were kept are read again.
      const versions = await deviceDataVersions(db, deviceIds);
      const parts = await groupDataCache.parts(groupDataQuestion(q), deviceIds, versions, (changed) =>
        groupDataParts(db, changed, q),
      );
      const wanted = new Set(q.keys);
      deviceIds.forEach((deviceId, i) => {
        const held = writer.heldLatest(deviceId);
        if (held.length === 0) return;
        // Held values are newer than or as new as the stored ones.
        const part = JSON.parse(`{${parts[i]!.toString()}}`) as {
          values: Record<string, { v: unknown; ts: number }>;
          lat: number | null;
          lon: number | null;
          hdop: number | null;
        };
        for (const h of held) {
          if (wanted.has(h.key))
            Object.defineProperty(part.values, h.key, {
              value: { v: h.value, ts: h.ts },
              enumerable: true,
              writable: true,
              configurable: true,
            });
          const n = typeof h.value === 'number' ? h.value : null;
          if (h.key === POSITION_KEYS.lat) part.lat = n;
          else if (h.key === POSITION_KEYS.lon) part.lon = n;
          else if (h.key === POSITION_KEYS.hdop) part.hdop = n;
        }
        parts[i] = Buffer.from(JSON.stringify(part).slice(1, -1));
      });
      return parts;
    },

    /** Group data parts served as kept and read from the database since the start. */
    groupDataCacheStats() {
      return groupDataCache.stats();
    },

    /** ADMIN with the setup password: deletes the device's data (not its server log). */
    async deleteData(userId: string, deviceId: string, setupPassword: string) {
      await requireAdminWithPassword(userId, deviceId, setupPassword);
      // Not between two ingest batches while derived rows are held: they are written first.
      const counts = await writer.exclusiveFlushed(() => db.transaction((tx) => moves.deleteDeviceData(tx, deviceId)));
      await deviceLog.write(
        deviceId,
        'data-deleted',
        `Data deleted by user ${userId}: ${counts.records} records, ${counts.events} events, ${counts.diagnostics} diagnostics, ${counts.rollups} hourly rollups, ${counts.latest} latest values`,
      );
      return { deviceid: deviceId, deleted: counts };
    },

    /** ADMIN of both devices, with the source's setup password: moves the data in one transaction. */
    async transferData(userId: string, deviceId: string, setupPassword: string, targetId: string) {
      await access.authorize(userId, deviceId, 'adminSettings');
      await access.authorize(userId, targetId, 'adminSettings');
      if (targetId === deviceId) throw new AppError(400, 'BAD_REQUEST', 'targetDeviceid must be another device');
      if (!(await devices.checkSetupPassword(deviceId, setupPassword)))
        throw new AppError(403, 'FORBIDDEN', INVALID_SETUP_PASSWORD);
      const counts = await writer.exclusiveFlushed(() =>
        db.transaction((tx) => moves.moveDeviceData(tx, deviceId, targetId)),
      );
      const summary = `${counts.records} records, ${counts.events} events, ${counts.diagnostics} diagnostics`;
      await deviceLog.write(
        deviceId,
        'data-transferred',
        `Data transferred to ${targetId} by user ${userId}: ${summary}`,
      );
      await deviceLog.write(
        targetId,
        'data-transferred',
        `Data transferred from ${deviceId} by user ${userId}: ${summary}`,
      );
      return { deviceid: deviceId, targetDeviceid: targetId, moved: counts };
    },

    /** Any role: the records of a time range as CSV or JSON, or the applied config (see export.ts). */
    async exportData(userId: string, deviceId: string, q: ExportQuery): Promise<ExportFile> {
      await access.authorize(userId, deviceId, null);
      const config = q.format === 'config' ? ((await devices.getDevice(deviceId))?.config ?? {}) : {};
      return exportFile(db, deviceId, q, config, clock.now().toISOString().slice(0, 10));
    },

    /**
     * editDeviceSettings: stores records through the ingest writer (rollups and latest values
     * stay right). Each record is checked like a device's; refused ones are listed by index.
     */
    async importRecords(userId: string, deviceId: string, records: unknown[]) {
      await access.authorize(userId, deviceId, 'editDeviceSettings');
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
      const plan = await ingestPlan(deviceId);
      let imported = 0;
      let duplicates = 0;
      let thinned = 0;
      for (let i = 0; i < accepted.length; i += RECORD_LIMITS.maxRecordsPerMessage) {
        const outcome = await writer.ingest({
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
      if (imported > 0) await deviceLog.write(deviceId, 'import', `${imported} records imported by user ${userId}`);
      return { deviceid: deviceId, imported, duplicates, thinned, refused };
    },

    // ------------------------------------------------------------ reads

    /**
     * GET /data, answered as JSON text (a DataResponse) written straight from the database rows:
     * see telemetry.serialize.ts.
     */
    async data(userId: string, deviceId: string, q: DataQuery): Promise<string> {
      await access.authorize(userId, deviceId, null);
      const nowS = clock.now().getTime() / 1000;
      const dataPoints = clampDataPoints(q.dataPoints);
      const keys = splitKeys(q.dataKeys);
      let from = q.fromTime ?? 0;
      let to = q.toTime ?? FAR_FUTURE;
      if (q.relative !== undefined) {
        from = nowS - q.relative / 1000;
        to = q.toTime ?? FAR_FUTURE;
      }
      if (from > to) throw new AppError(400, 'BAD_REQUEST', 'fromTime must not be after toTime');
      const range = { from, to };
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
          if (!Number.isFinite(n) || n < 1 || n > DOWNSAMPLE_MAX_WIDTH)
            throw new AppError(
              400,
              'BAD_REQUEST',
              `downsample must be true or a bucket width in seconds from 1 to ${DOWNSAMPLE_MAX_WIDTH}`,
            );
          bucketSeconds = requestedWidth(n);
        }
      }
      const width = bucketSeconds;
      const points = async (): Promise<string> => {
        if (width === undefined)
          return recordPointsJson(await repo.selectRecordsText(db, deviceId, range, dataPoints, keys), keys);
        const source = bucketSource(width);
        const rows =
          source === 'records'
            ? await repo.selectRecordBuckets(db, deviceId, range, width, dataPoints, keys)
            : await repo.selectRollupBuckets(db, source, deviceId, range, width, dataPoints, keys);
        return JSON.stringify(bucketsByKey(rows));
      };
      // Two independent reads: side by side on PostgreSQL's pool.
      const [dataJson, events] = await Promise.all([
        points(),
        q.events === 'false' ? [] : repo.selectEvents(db, deviceId, range, dataPoints),
      ]);
      return dataResponseJson(deviceId, dataJson, events, bucketSeconds);
    },

    async diagnostics(userId: string, deviceId: string, dataPoints: number | undefined) {
      await access.authorize(userId, deviceId, 'diagnostics');
      const [rows, bus, reference] = await Promise.all([
        repo.selectDiagnostics(db, deviceId, clampDataPoints(dataPoints)),
        repo.selectBusMessages(db, deviceId),
        loadJ1939Reference(),
      ]);
      return {
        deviceid: deviceId,
        diagnostics: rows.map((r) => ({ ts: r.ts, data: r.data })),
        ...busStateView(bus, reference),
      };
    },

    /**
     * The device's server log (ADMIN, on a plan with a server log: spec 1 section 9; the plan its
     * data rules follow, dataPlan, as retention keeps the log's lines).
     */
    async serverLog(userId: string, deviceId: string, query: ServerLogQuery) {
      await access.authorize(userId, deviceId, 'serverLog');
      const device = await devices.getDevice(deviceId);
      if (!device) throw new AppError(404, 'NOT_FOUND', 'Device not found');
      const plan = dataPlan(device, clock.now().getTime());
      if (!PLANS[plan].serverLog) throw new AppError(403, 'FORBIDDEN', serverLogUnavailableMessage(plan));
      const limit = clampDataPoints(query.dataPoints, DEFAULT_SERVER_LOG_ENTRIES);
      const page = await deviceLog.list(deviceId, limit, { kind: query.kind, before: query.before });
      return { deviceid: deviceId, ...page };
    },

    // ------------------------------------------------------------ metrics

    /**
     * GET /device/{id}/metrics: each period's metrics per key (core metricsPeriods: whole hours,
     * the previous period by default the hours just before the current one), the current
     * period's intermediate periods (core intermediatePeriods: its days, or hours), and with
     * includeLatestData the newest values (latestData: those not older than the current
     * period's start; lastKnownData: all). Any role reads; a stranger gets 404.
     */
    async metrics(userId: string, deviceId: string, q: MetricsQuery): Promise<MetricsResponse> {
      await access.authorize(userId, deviceId, null);
      const { current, previous } = metricsPeriods(q);
      const metricOf = (r: repo.HourAggregate) => ({
        min: r.min,
        max: r.max,
        avg: r.count > 0 ? r.sum / r.count : 0,
        sum: r.sum,
        diff: r.last - r.first,
        acc: r.last,
        count: r.count,
      });
      const period = async (p: MetricsPeriod): Promise<MetricSet> => {
        if (p.endTime <= p.startTime) return {};
        const rows = await repo.selectRollupAggregates(db, deviceId, { from: p.startTime, to: p.endTime }, q.dataKeys);
        return Object.fromEntries(rows.map((r) => [r.key, metricOf(r)]));
      };
      // The current period in slices, read in one statement grouped by slot.
      const slices = intermediatePeriods(current);
      const bySlot = new Map<number, MetricSet>();
      if (slices.periods.length > 0) {
        const rows = await repo.selectRollupSlots(
          db,
          deviceId,
          { from: current.startTime, to: current.endTime },
          slices.width,
          q.dataKeys,
        );
        for (const r of rows) {
          const set = bySlot.get(r.slot) ?? {};
          set[r.key] = metricOf(r);
          bySlot.set(r.slot, set);
        }
      }
      const answer: MetricsResponse = {
        deviceid: deviceId,
        currentPeriod: { ...current, data: await period(current) },
        previousPeriod: { ...previous, data: await period(previous) },
        currentIntermediatePeriods: slices.periods.map((p) => ({
          endTime: p.endTime,
          data: bySlot.get(Math.floor(p.startTime / slices.width) * slices.width) ?? {},
        })),
      };
      if (q.includeLatestData) {
        const wanted = q.dataKeys ? new Set(q.dataKeys) : null;
        const known = (await repo.selectLatest(db, deviceId)).filter((l) => !wanted || wanted.has(l.key));
        answer.lastKnownData = Object.fromEntries(known.map((l) => [l.key, { v: l.value, ts: l.ts }]));
        answer.latestData = Object.fromEntries(
          known.filter((l) => l.ts >= current.startTime).map((l) => [l.key, { v: l.value, ts: l.ts }]),
        );
      }
      return answer;
    },

    /** One key's aggregates over many devices for each period (group metrics), from the rollups in one statement. */
    groupKeyAggregates(
      deviceIds: readonly string[],
      key: string,
      periods: readonly HourPeriod[],
      withLatest: boolean,
    ): Promise<GroupKeyAggregate[]> {
      return groupKeyAggregates(db, deviceIds, key, periods, withLatest);
    },
  };
}

export type TelemetryService = ReturnType<typeof createTelemetryService>;
