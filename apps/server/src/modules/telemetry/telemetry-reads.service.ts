/**
 * Telemetry's reads: a device's data (records, or averaged into buckets), latest values, clock
 * difference, diagnostics, server log and metrics, and each device's part of the group data and
 * group metrics. Values the ingest writer holds back count as stored.
 */
import {
  DEFAULT_SERVER_LOG_ENTRIES,
  clampDataPoints,
  PLANS,
  dataPlan,
  serverLogUnavailableMessage,
  type DataPoint,
  type DataQuery,
  type DiagnosticsResponse,
  metricsPeriods,
  intermediatePeriods,
  type MetricSet,
  type MetricsPeriod,
  type MetricsQuery,
  type MetricsResponse,
  type ServerLogQuery,
  type ServerLogResponse,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError } from '../../errors';
import type { AccessService } from '../access/access.service';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { DeviceRegistry } from '../devices/devices.registry';
import * as repo from './telemetry-reads.repository';
import { dataResponseJson, recordPointsJson } from './telemetry.serialize';
import type { IngestWriter } from './ingest-writer';
import {
  deviceDataVersions,
  groupDataParts,
  groupDataQuestion,
  POSITION_KEYS,
  type GroupDataQuery,
} from './group-data.repository';
import { createGroupDataCache, type GroupDataCacheStats } from './group-data-cache';
import { groupKeyAggregates, type GroupKeyAggregate, type HourPeriod } from './group-metrics.repository';
import { busStateView, loadJ1939Reference } from './j1939-reference';
import { FAR_FUTURE, splitKeys } from './export';
import { DOWNSAMPLE_MAX_WIDTH, bucketSource, bucketWidth, bucketsByKey, requestedWidth } from './downsample';

/** What telemetry's reads offer (part of TelemetryService). */
export interface TelemetryReads {
  /** Seconds between the server's clock and the device's at its newest record (null without records). */
  clockDifference(deviceId: string): Promise<number | null>;
  /** The newest value of every key of a device, with its time. */
  latest(deviceId: string): Promise<Record<string, DataPoint>>;
  /** Each device's part of the group data answer, in the order given (the caller checked access). */
  groupDataParts(deviceIds: readonly string[], q: GroupDataQuery): Promise<Buffer[]>;
  /** Group data parts served as kept and read from the database since the start. */
  groupDataCacheStats(): GroupDataCacheStats;
  /** GET /data (any role): the DataResponse as JSON text. */
  data(userId: string, deviceId: string, q: DataQuery): Promise<string>;
  /** GET /diagnostics (diagnostics): the newest messages and the bus state. */
  diagnostics(userId: string, deviceId: string, dataPoints: number | undefined): Promise<DiagnosticsResponse>;
  /** GET /serverlog (ADMIN, on a plan with a server log): one page of the device's server log. */
  serverLog(userId: string, deviceId: string, query: ServerLogQuery): Promise<ServerLogResponse>;
  /** GET /metrics (any role): each period's metrics per key from the rollups. */
  metrics(userId: string, deviceId: string, q: MetricsQuery): Promise<MetricsResponse>;
  /** One key's aggregates over many devices for each period (group metrics). */
  groupKeyAggregates(
    deviceIds: readonly string[],
    key: string,
    periods: readonly HourPeriod[],
    withLatest: boolean,
  ): Promise<GroupKeyAggregate[]>;
}

/** The group data parts kept between calls, in bytes: 10,000 devices' parts are about 8 MB. */
export const GROUP_DATA_CACHE_BYTES = 64 * 1024 * 1024;

export function createTelemetryReads(deps: {
  db: Db;
  clock: Clock;
  access: AccessService;
  devices: Pick<DeviceRegistry, 'getDevice'>;
  deviceLog: DeviceLogService;
  /** The values the writer holds back (newer than or as new as the stored ones). */
  writer: Pick<IngestWriter, 'heldLatest'>;
}): TelemetryReads {
  const { db, clock, access, devices, deviceLog, writer } = deps;
  const groupDataCache = createGroupDataCache(GROUP_DATA_CACHE_BYTES);

  return {
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
    groupDataCacheStats(): GroupDataCacheStats {
      return groupDataCache.stats();
    },

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

    async diagnostics(userId: string, deviceId: string, dataPoints: number | undefined): Promise<DiagnosticsResponse> {
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
    async serverLog(userId: string, deviceId: string, query: ServerLogQuery): Promise<ServerLogResponse> {
      await access.authorize(userId, deviceId, 'serverLog');
      const device = await devices.getDevice(deviceId);
      if (!device) throw new AppError(404, 'NOT_FOUND', 'Device not found');
      const plan = dataPlan(device, clock.now().getTime());
      if (!PLANS[plan].serverLog) throw new AppError(403, 'FORBIDDEN', serverLogUnavailableMessage(plan));
      const limit = clampDataPoints(query.dataPoints, DEFAULT_SERVER_LOG_ENTRIES);
      const page = await deviceLog.list(deviceId, limit, { kind: query.kind, before: query.before });
      return { deviceid: deviceId, ...page };
    },

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
