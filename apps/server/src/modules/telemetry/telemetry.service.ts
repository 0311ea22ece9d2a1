/**
 * Telemetry: the ingest writer (group commit behind one bounded queue), the command queue and
 * the read calls (data, diagnostics, server log, rpc, metrics). Devices are reached through the
 * devices service only (key check, plan, contact, pending config, roles).
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  COMMAND_EXPIRY_S,
  CommandAckSchema,
  FIRMWARE_PATTERN,
  MAX_IMPORT_RECORDS,
  PLANS,
  PREMIUM_TIER_NAME,
  RECORD_LIMITS,
  can,
  parseDeviceRecord,
  planState,
  type Capability,
  type CommandAck,
  type CommandAckResult,
  type CommandMessage,
  type DeviceRole,
  type PlanName,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict, forbidden } from '../../errors';
import { IngestQueue } from '../../ingest/queue';
import {
  DerivedRows,
  assembleBatch,
  eventRows,
  prepareItem,
  rowKey,
  thinBasic,
  type Candidate,
  type IngestItem,
  type IngestOutcome,
  type PreparedItem,
} from '../../ingest/batch';
import * as repo from './telemetry.repository';
import { dataResponseJson, recordPointsJson, type DataEvent } from './telemetry.serialize';

/** What telemetry needs of the devices service (structural: the devices service satisfies it). */
export interface TelemetryDevices {
  verifyDeviceKey(id: string, key: string): Promise<boolean>;
  getDevice(id: string): Promise<{
    id: string;
    tier: string;
    added_ts: number | null;
    trial_reset_ts?: number | null;
    config: Record<string, unknown>;
  } | null>;
  markContacts(contacts: ReadonlyMap<string, number>, tx?: Db): Promise<void>;
  devicesWithPendingConfig(ids: string[]): Promise<string[]>;
  reportFirmware(
    reports: ReadonlyMap<string, string>,
    tx?: Db,
  ): Promise<{ id: string; previous: string; fw: string }[]>;
  takeConfigToSend(
    id: string,
    resendAfterMs: number,
  ): Promise<{ config: Record<string, unknown>; version: number } | null>;
  acknowledgeConfig(id: string, version: number, checkOnly?: boolean): Promise<AckOutcome>;
  roleOf(userId: string, deviceId: string): Promise<DeviceRole | null>;
  checkSetupPassword(deviceId: string, password: string): Promise<boolean>;
}

/**
 * What an acknowledged config or script version did: applied now, applied before, superseded (a
 * newer version is on its way, nothing changes), or unknown (never sent: refused).
 */
export type AckOutcome = 'applied' | 'already' | 'superseded' | 'unknown';

/** The device-config module's part of the protocol: script acknowledgements and files for devices. */
export interface DeviceConfigHooks {
  /** Of the given devices, those with a pending script. */
  devicesWithPendingScript(ids: string[]): Promise<string[]>;
  acknowledgeScript(deviceId: string, version: number, checkOnly: boolean): Promise<AckOutcome>;
  deviceFile(
    deviceId: string,
    fileId: number,
  ): Promise<{ fileName: string; size: number; sha256: string; bytes: Buffer } | null>;
}

/** The saved script to send now with its version (marked sent), or null. */
export type ScriptSource = (deviceId: string) => Promise<{ script: string; version: number } | null>;

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
  /**
   * Under load, the rows derived from committed records (rollups, latest values, contact times)
   * are held and written together at most this long after the first of them (0: with every batch).
   */
  derivedHoldMs: number;
  /** Below this many messages a second, with nothing queued, a batch's derived rows go with it. */
  lightIngestPerSecond: number;
  /** Held derived rows are written once no message has come for this long. */
  derivedIdleWriteMs: number;
  /** Tests only: never write held derived rows, not even on close (as if the process died). */
  neverWriteDerived?: boolean;
}

export const DEFAULT_TELEMETRY_OPTIONS: TelemetryOptions = {
  queueCapacity: 5000,
  batchSize: 2000,
  resendAfterMs: 30_000,
  commandCheckIntervalMs: 5000,
  retentionIntervalMs: 3_600_000,
  retentionBatchSize: 5000,
  derivedHoldMs: 5000,
  lightIngestPerSecond: 200,
  derivedIdleWriteMs: 20,
};

/** Start-up rebuilds derived rows from the records received this long before the oldest held one. */
const UNFLUSHED_MARGIN_MS = 60_000;
/** Deliveries of commands and config at contact running at once (see contactDelivery). */
const DELIVERY_CONCURRENCY = 4;
/** Contacts of this long are checked for deliveries together. */
const CONTACT_CHECK_DELAY_MS = 20;
/** At most this many held rollup and latest rows (memory bound): more are written at once. */
const MAX_HELD_ROWS = 100_000;

export const INVALID_SETUP_PASSWORD = 'Invalid setup password.';
/** Records per page when exporting. */
export const EXPORT_PAGE_SIZE = 1000;

export interface ExportQuery {
  fromTime?: number | undefined;
  toTime?: number | undefined;
  dataKeys?: string | undefined;
  format?: 'csv' | 'json' | 'config' | undefined;
}

export interface RetentionResult {
  deviceId: string;
  cutoff: number;
  records: number;
  events: number;
  diagnostics: number;
  /** Hourly rollups. */
  rollups: number;
  dailyRollups: number;
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

/** The shape of GET /data's answer (written as JSON text by telemetry.serialize.ts). */
export interface DataResponse {
  deviceid: string;
  data: Record<string, DataPoint[]>;
  events: DataEvent[];
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

/**
 * Widest bucket read from the hourly rollups when the server picks the width: wider ones would
 * read more than twice as many hourly rows as the buckets asked for (a 90-day chart of 600
 * points: 2,160 hours a key), so they become whole days, read from the daily rollups.
 */
const HOURLY_MAX_WIDTH = 2 * 3600;

/**
 * The bucket width for a range and a number of points: at least 1 s; from an hour, whole hours
 * (hourly rollups); above HOURLY_MAX_WIDTH, whole days (daily rollups).
 */
export function bucketWidth(rangeSeconds: number, dataPoints: number): number {
  const raw = Math.max(1, Math.ceil(rangeSeconds / Math.max(1, dataPoints)));
  if (raw < 3600) return raw;
  return raw <= HOURLY_MAX_WIDTH ? Math.ceil(raw / 3600) * 3600 : Math.ceil(raw / 86_400) * 86_400;
}

/** Where buckets of a width are computed: whole days from the daily rollups, whole hours from the hourly ones, else raw records. */
export function bucketSource(seconds: number): repo.RollupTable | 'records' {
  if (seconds % 86_400 === 0) return 'rollup_day';
  return seconds % 3600 === 0 ? 'rollup_hour' : 'records';
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

  // ---------------------------------------------------------------- the ingest writer
  // Records, events, diagnostics and server-log lines go into their own batch's transaction and
  // are acknowledged after its commit. The rows derived from them (hourly and daily rollups,
  // latest values, contact times) go with their batch under light load; under load they are
  // held in memory and written in the transaction of a later batch once the oldest is
  // derivedHoldMs old (or MAX_HELD_ROWS are held), in their own transaction once the stream
  // pauses (derivedIdleWriteMs), before a delete or transfer of data, and on close. While rows
  // are held, ingest_state.unflushed_since says from which receipt time start-up must rebuild
  // them from the records (recoverDerived) should the process die.

  /** Derived rows of committed batches not written yet; only the writer changes them. */
  let held = new DerivedRows();
  /** When the held rows started to gather (Date.now()). */
  let heldSince = 0;
  /** ingest_state.unflushed_since as this writer last set it (epoch ms), or null. */
  let heldMark: number | null = null;
  /** One writer at a time: batches, and the deletes and transfers that must not interleave with them. */
  let writerTail: Promise<unknown> = Promise.resolve();

  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = writerTail.then(fn, fn);
    writerTail = run.catch(() => undefined);
    return run;
  }

  async function writeDerived(tx: Db, rows: DerivedRows, deviceIds?: string[]): Promise<void> {
    const { rollups, latest, contacts } = rows.rows(deviceIds);
    await repo.upsertRollups(tx, rollups);
    await repo.upsertLatest(tx, latest);
    await devices.markContacts(contacts, tx);
  }

  function heldWritten(): void {
    held = new DerivedRows();
    heldMark = null;
  }

  /** The firmware devices report in their diagnostics (`fw`, a firmware name) goes into their records, logged when it changes. */
  async function reportFirmware(tx: Db, diagnostics: repo.DiagnosticsRow[], now: Date): Promise<void> {
    const reports = new Map<string, string>();
    for (const d of diagnostics) {
      const fw = (d.data as Record<string, unknown>).fw;
      if (typeof fw === 'string' && FIRMWARE_PATTERN.test(fw)) reports.set(d.device_id, fw);
    }
    const changed = await devices.reportFirmware(reports, tx);
    await repo.insertServerLog(
      tx,
      changed.map((c) => ({
        device_id: c.id,
        ts: now.toISOString(),
        kind: 'firmware',
        message: `firmware now ${c.fw} (was ${c.previous}), as the device reports`,
      })),
    );
  }

  function addDerived(rows: DerivedRows, fresh: Candidate[], contacts: Set<string>, nowS: number): void {
    for (const deviceId of contacts) rows.addContact(deviceId, nowS);
    for (const c of fresh) rows.addRecord(c.deviceId, c.record);
  }

  /**
   * Stores a batch; with `writeHeld`, the held derived rows and the batch's own are written in
   * its transaction. A batch with nothing but records and events (no thinning, no held rows to
   * write, no diagnostics or log lines, its receipt already covered by the mark) is one
   * statement, committed on its own.
   */
  async function commitBatch(items: PreparedItem[], now: Date, writeHeld: boolean): Promise<IngestOutcome[]> {
    const batch = assembleBatch(items);
    const basic = new Set(items.filter((p) => p.item.basic).map((p) => p.item.deviceId));
    const nowS = now.getTime() / 1000;
    let earliestReceivedMs = Infinity;
    for (const p of items) earliestReceivedMs = Math.min(earliestReceivedMs, p.item.receivedAt.getTime());
    const single =
      !writeHeld &&
      basic.size === 0 &&
      heldMark !== null &&
      earliestReceivedMs - UNFLUSHED_MARGIN_MS >= heldMark &&
      batch.diagnostics.length === 0 &&
      batch.serverLog.length === 0;
    let mark: number | null = null;
    /** The records this batch stored, and the devices that made contact (stored or resent records). */
    let fresh: Candidate[] = [];
    const contacts = new Set<string>();
    const store = async (tx: Db) => {
      fresh = [];
      contacts.clear();
      const newest = basic.size > 0 ? await repo.newestRecordTimes(tx, [...basic]) : new Map<string, number>();
      // A record twice in the batch is stored once: the later copies are duplicates.
      const seen = new Map<string, Set<number>>();
      const unique = thinBasic(batch, basic, newest).filter((c) => {
        let times = seen.get(c.deviceId);
        if (!times) seen.set(c.deviceId, (times = new Set()));
        if (!times.has(c.record.ts)) {
          times.add(c.record.ts);
          return true;
        }
        batch.outcomes[c.itemIndex]!.duplicates += 1;
        contacts.add(c.deviceId);
        return false;
      });
      const { keys } = await repo.insertRecords(
        tx,
        unique.map((c) => c.row),
        eventRows(unique),
      );
      // keys: only when some records were already stored (resent); otherwise every one is new.
      const inserted = keys && new Set(keys.map(([deviceId, ts]) => rowKey(deviceId, ts)));
      for (const c of unique) {
        const isNew = !inserted || inserted.has(rowKey(c.deviceId, c.record.ts));
        batch.outcomes[c.itemIndex]![isNew ? 'stored' : 'duplicates'] += 1;
        contacts.add(c.deviceId);
        if (isNew) fresh.push(c);
      }
      if (single) return;
      await repo.insertDiagnostics(tx, batch.diagnostics);
      await reportFirmware(tx, batch.diagnostics, now);
      await repo.insertServerLog(tx, batch.serverLog);
      if (writeHeld) {
        const derived = new DerivedRows();
        addDerived(derived, fresh, contacts, nowS);
        await writeDerived(tx, held.isEmpty ? derived : DerivedRows.combine(held, derived));
        if (heldMark !== null) await repo.updateUnflushedSince(tx, null);
      } else if (contacts.size > 0) {
        const since = earliestReceivedMs - UNFLUSHED_MARGIN_MS;
        if (heldMark === null || since < heldMark) {
          await repo.updateUnflushedSince(tx, new Date(since));
          mark = since;
        }
      }
    };
    if (single) await store(db);
    else await db.transaction(store);
    if (writeHeld) {
      heldWritten();
    } else if (contacts.size > 0) {
      // Committed: its derived rows join the held ones (no other set shares their row objects now).
      if (held.isEmpty) heldSince = Date.now();
      held.noteReceived(earliestReceivedMs);
      addDerived(held, fresh, contacts, nowS);
      if (mark !== null) heldMark = mark;
    }
    return batch.outcomes;
  }

  /**
   * Writes the held rows one device at a time (after a failed combined write: a hostile value
   * may overflow a rollup). A device whose rows still fail gets its rollups and latest values
   * rebuilt from its records; when even that fails they stay held (and marked) for a later try.
   */
  async function writeHeldIsolated(): Promise<void> {
    const since = heldMark === null ? held.earliestReceivedMs - UNFLUSHED_MARGIN_MS : heldMark;
    for (const deviceId of held.deviceIds()) {
      try {
        await db.transaction((tx) => writeDerived(tx, held, [deviceId]));
        held.forget(deviceId);
        continue;
      } catch (error) {
        log.warn(
          { err: error, deviceId },
          'Derived rows of a device could not be written; rebuilding them from its records',
        );
      }
      try {
        const hours = held.buckets(deviceId).map((bucket) => ({ device_id: deviceId, bucket }));
        const { contacts } = held.rows([deviceId]);
        await db.transaction(async (tx) => {
          await rebuildDerived(tx, hours, new Date(since), [deviceId]);
          await devices.markContacts(contacts, tx);
        });
        held.forget(deviceId);
      } catch (error) {
        log.error({ err: error, deviceId }, 'Derived rows of a device could not be rebuilt; kept for the next write');
      }
    }
    if (held.isEmpty) {
      if (heldMark !== null) await repo.updateUnflushedSince(db, null);
      heldWritten();
    }
  }

  /** Writes the held rows now (before a delete or transfer, on close). Call inside `exclusive`. */
  async function flushHeld(): Promise<void> {
    if (held.isEmpty || options.neverWriteDerived) return;
    try {
      await db.transaction(async (tx) => {
        await writeDerived(tx, held);
        if (heldMark !== null) await repo.updateUnflushedSince(tx, null);
      });
      heldWritten();
    } catch (error) {
      log.warn({ err: error }, 'Writing the held derived rows failed; writing them device by device');
      await writeHeldIsolated();
    }
  }

  /**
   * Deliveries at contact run at most DELIVERY_CONCURRENCY at a time and once per device at a
   * time: a burst of contacts never takes the database connections the ingest writer needs.
   */
  const deliveries = {
    running: 0,
    waiting: [] as (() => void)[],
    devices: new Set<string>(),
    /** Resolved when the last running delivery ends (close waits for it). */
    idle: null as (() => void) | null,
  };

  function contactDelivery(deviceId: string, task: () => Promise<void>): void {
    if (deliveries.devices.has(deviceId)) return;
    deliveries.devices.add(deviceId);
    const run = () => {
      deliveries.running += 1;
      task()
        .catch((error: unknown) => log.warn({ err: error, deviceId }, 'Command delivery failed'))
        .finally(() => {
          deliveries.running -= 1;
          deliveries.devices.delete(deviceId);
          deliveries.waiting.shift()?.();
          if (deliveries.running === 0) deliveries.idle?.();
        });
    };
    if (deliveries.running < DELIVERY_CONCURRENCY) run();
    else deliveries.waiting.push(run);
  }

  /** Messages written in the current and the previous second: how busy ingest is. */
  const rate = { windowStart: 0, current: 0, previous: 0 };

  function noteWritten(messages: number): void {
    const t = Date.now();
    if (t - rate.windowStart >= 1000) {
      rate.previous = t - rate.windowStart >= 2000 ? 0 : rate.current;
      rate.current = 0;
      rate.windowStart = t;
    }
    rate.current += messages;
  }

  /** Messages written in about the last second. */
  function recentRate(): number {
    return rate.current + rate.previous * Math.max(0, 1 - (Date.now() - rate.windowStart) / 1000);
  }

  let idleTimer: NodeJS.Timeout | null = null;

  /** Once no message has come for derivedIdleWriteMs, the held rows are written in their own transaction. */
  function writeHeldWhenIdle(): void {
    if (idleTimer || held.isEmpty || options.neverWriteDerived) return;
    idleTimer = setTimeout(() => {
      idleTimer = null;
      if (queue.pending > 0) return; // the batch on its way writes them or schedules this again
      exclusive(flushHeld).catch((error: unknown) => log.error({ err: error }, 'Writing held derived rows failed'));
    }, options.derivedIdleWriteMs);
    idleTimer.unref();
  }

  function writeBatch(items: PreparedItem[]): Promise<IngestOutcome[]> {
    return exclusive(async () => {
      const now = clock.now();
      // Light load (nothing waiting, few messages a second): derived rows go with their batch, so
      // reads right after an acknowledgement see them. Otherwise they are held until the oldest
      // is derivedHoldMs old or too many are held.
      const light = queue.length === 0 && recentRate() < options.lightIngestPerSecond;
      const due =
        !held.isEmpty && (Date.now() - heldSince >= options.derivedHoldMs || held.rowCount() >= MAX_HELD_ROWS);
      const writeHeld = !options.neverWriteDerived && (light || due || options.derivedHoldMs <= 0);
      let outcomes: IngestOutcome[];
      if (!writeHeld) {
        outcomes = await commitBatch(items, now, false);
      } else {
        try {
          outcomes = await commitBatch(items, now, true);
        } catch (error) {
          // Store the batch with its derived rows held, then write those device by device.
          log.warn({ err: error }, 'Ingest batch with derived rows failed; storing it alone');
          outcomes = await commitBatch(items, now, false);
          await writeHeldIsolated();
        }
      }
      noteWritten(items.length);
      if (queue.length === 0) writeHeldWhenIdle();
      return outcomes;
    });
  }

  /** Rebuilds rollups (hourly, then daily) of the given hours and latest values of records received since `since`. */
  async function rebuildDerived(tx: Db, hours: repo.DeviceBucket[], since: Date, deviceIds: string[] | null) {
    await repo.rebuildRollupHours(tx, hours);
    const days = new Map<string, repo.DeviceBucket>();
    for (const h of hours) {
      const bucket = Math.floor(h.bucket / 86_400) * 86_400;
      days.set(`${h.device_id}\u0000${bucket}`, { device_id: h.device_id, bucket });
    }
    await repo.rebuildRollupDays(tx, [...days.values()]);
    await repo.restoreLatestSince(tx, since, deviceIds);
  }

  /**
   * Start-up, before ingest: when the last process died with derived rows held back, rebuilds
   * them from the records received since ingest_state.unflushed_since (idempotent).
   */
  async function recoverDerived(): Promise<{ since: Date; hours: number } | null> {
    const since = await repo.selectUnflushedSince(db);
    if (since === null) return null;
    const result = await db.transaction(async (tx) => {
      const hours = await repo.selectHoursReceivedSince(tx, since);
      await rebuildDerived(tx, hours, since, null);
      await devices.markContacts(await repo.selectContactsSince(tx, since), tx);
      await repo.updateUnflushedSince(tx, null);
      return { since, hours: hours.length };
    });
    log.warn(result, 'Rebuilt rollups, latest values and contact times held back when the last process stopped');
    return result;
  }

  const queue = new IngestQueue<IngestItem, IngestOutcome, PreparedItem>({
    capacity: options.queueCapacity,
    batchSize: options.batchSize,
    prepare: prepareItem,
    process: writeBatch,
    onBatchError: (error, size) =>
      log.warn({ err: error, size }, 'Ingest batch failed; retrying its messages one by one'),
  });

  /** The saved device script waiting for delivery (the device-config module provides it). */
  let scriptSource: ScriptSource | null = null;
  let deviceConfigHooks: DeviceConfigHooks | null = null;

  const expiryCutoff = (now: Date) => new Date(now.getTime() - COMMAND_EXPIRY_S * 1000);
  const expiredLine = (c: { id: number; method: string }) =>
    `Command ${c.id} ${c.method}: command expired (not acknowledged within ${COMMAND_EXPIRY_S / 86_400} days)`;

  /**
   * What to send the device now: its commands (marked sent; unacknowledged ones again after the
   * resend interval; expired ones never), the pending config and the saved script with their
   * versions; null when there is nothing. Each goes to the device's server log.
   */
  async function takeDelivery(deviceId: string, via: 'mqtt' | 'http'): Promise<CommandMessage | null> {
    dirty.delete(deviceId);
    lastCheck.set(deviceId, Date.now());
    const now = clock.now();
    const taken = await repo.takeCommandsToSend(
      db,
      deviceId,
      now,
      new Date(now.getTime() - options.resendAfterMs),
      expiryCutoff(now),
    );
    const commands = taken.filter((c) => c.outcome !== 'expired');
    const config = await devices.takeConfigToSend(deviceId, options.resendAfterMs);
    const script = scriptSource ? await scriptSource(deviceId) : null;
    const ts = now.toISOString();
    const lines: repo.ServerLogRow[] = taken.map((c) => ({
      device_id: deviceId,
      ts,
      kind: 'command',
      message:
        c.outcome === 'expired'
          ? expiredLine(c)
          : `Command ${c.id} ${c.method} ${c.outcome === 'resent' ? 'sent again, not yet acknowledged' : 'sent'} (${via})`,
    }));
    if (config)
      lines.push({
        device_id: deviceId,
        ts,
        kind: 'config',
        message: `config version ${config.version} sent (${via})`,
      });
    if (script)
      lines.push({
        device_id: deviceId,
        ts,
        kind: 'config',
        message: `script version ${script.version} sent (${via})`,
      });
    if (lines.length > 0) await repo.insertServerLog(db, lines);
    if (commands.length === 0 && !config && !script) return null;
    return {
      commands: commands.map((c) => ({ id: c.id, method: c.method, ...(c.args === null ? {} : { args: c.args }) })),
      ...(config ? { config: config.config, configVersion: config.version } : {}),
      ...(script ? { script: script.script, scriptVersion: script.version } : {}),
    };
  }

  /** Devices that made contact and are to be checked for something to deliver. */
  const toCheck = new Set<string>();
  let checkTimer: NodeJS.Timeout | null = null;

  /**
   * Which of the devices in `toCheck` may have something to deliver (unacknowledged commands, a
   * pending config or script: a superset of what takeDelivery sends); those get a delivery.
   */
  async function checkContacts(): Promise<void> {
    const ids = [...toCheck];
    toCheck.clear();
    if (ids.length === 0) return;
    const found = await Promise.all([
      repo.devicesWithOpenCommands(db, ids),
      devices.devicesWithPendingConfig(ids),
      deviceConfigHooks ? deviceConfigHooks.devicesWithPendingScript(ids) : Promise.resolve([]),
    ]);
    for (const deviceId of new Set(found.flat())) contactDelivery(deviceId, () => pushToDevice(deviceId));
  }

  async function pushToDevice(deviceId: string): Promise<void> {
    const target = sink;
    if (!target) return;
    const message = await takeDelivery(deviceId, 'mqtt');
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

  /** Something new waits for the device: an online (MQTT) device gets it at once, an offline one at its next contact. */
  function deliverSoon(deviceId: string): void {
    dirty.add(deviceId);
    if (sink && sink.isOnline(deviceId) !== false) {
      pushToDevice(deviceId).catch((error: unknown) => log.warn({ err: error, deviceId }, 'Command delivery failed'));
    }
  }

  /** Unacknowledged commands older than COMMAND_EXPIRY_S become expired (one device, or all); each is logged. */
  async function expireCommands(now: Date, deviceId: string | null = null): Promise<number> {
    const rows = await repo.expireCommands(db, expiryCutoff(now), deviceId);
    if (rows.length > 0) {
      const ts = now.toISOString();
      await repo.insertServerLog(
        db,
        rows.map((c) => ({ device_id: c.device_id, ts, kind: 'command', message: expiredLine(c) })),
      );
    }
    return rows.length;
  }

  /**
   * Applies a device's acknowledgement: every part is checked first (a command of another
   * device or an unknown id: 404; a cancelled or expired command, or a config or script version
   * that was not sent: 409), so a refused acknowledgement changes nothing. Acknowledging again
   * what is already acknowledged is accepted and changes nothing.
   */
  async function applyAck(deviceId: string, ack: CommandAck): Promise<CommandAckResult> {
    const ids = [...new Set([...(ack.id !== undefined ? [ack.id] : []), ...(ack.ids ?? [])])];
    const known = new Map((await repo.selectCommandStates(db, deviceId, ids)).map((c) => [c.id, c]));
    for (const id of ids) {
      const command = known.get(id);
      if (!command) throw new AppError(404, 'NOT_FOUND', `Command ${id} not found`);
      if (command.state === 'cancelled' || command.state === 'expired')
        throw conflict(`Command ${id} is ${command.state} and cannot be acknowledged`);
    }
    const hooks = deviceConfigHooks;
    if (ack.config !== undefined && (await devices.acknowledgeConfig(deviceId, ack.config, true)) === 'unknown')
      throw conflict(`Config version ${ack.config} was not sent to this device`);
    if (
      ack.script !== undefined &&
      (!hooks || (await hooks.acknowledgeScript(deviceId, ack.script, true)) === 'unknown')
    )
      throw conflict(`Script version ${ack.script} was not sent to this device`);

    const now = clock.now();
    const delivered = await repo.markCommandsDelivered(db, deviceId, ids, now);
    if (delivered.length > 0) {
      await repo.insertServerLog(
        db,
        delivered
          .sort((a, b) => a.id - b.id)
          .map((c) => ({
            device_id: deviceId,
            ts: now.toISOString(),
            kind: 'command',
            message: `Command ${c.id} ${c.method} delivered (acknowledged)`,
          })),
      );
    }
    if (ack.config !== undefined) await devices.acknowledgeConfig(deviceId, ack.config);
    if (ack.script !== undefined && hooks) await hooks.acknowledgeScript(deviceId, ack.script, false);
    return { commands: ids, config: ack.config ?? null, script: ack.script ?? null };
  }

  /**
   * An acknowledgement as the device sent it (parsed JSON): validated, applied, or refused with
   * a 4xx AppError and a 'refused' line in the device's server log.
   */
  async function receiveAck(deviceId: string, body: unknown, via: 'mqtt' | 'http'): Promise<CommandAckResult> {
    const parsed = CommandAckSchema.safeParse(body);
    try {
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.join('.') ?? '';
        throw new AppError(
          400,
          'BAD_REQUEST',
          `Malformed acknowledgement: ${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'}`,
        );
      }
      return await applyAck(deviceId, parsed.data);
    } catch (error) {
      if (error instanceof AppError) await logLine(deviceId, 'refused', `${via} ack refused: ${error.message}`);
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
    await expireCommands(now);
    const results: RetentionResult[] = [];
    const limit = options.retentionBatchSize;
    for (const deviceId of await repo.devicesWithData(db)) {
      const device = await devices.getDevice(deviceId);
      if (!device) continue;
      const days = PLANS[planOf(device, now.getTime())].dataStorageDays;
      const cutoff = now.getTime() / 1000 - days * 86_400;
      const result: RetentionResult = {
        deviceId,
        cutoff,
        records: 0,
        events: 0,
        diagnostics: 0,
        rollups: 0,
        dailyRollups: 0,
      };
      const tables: [repo.RetentionTable, 'records' | 'events' | 'diagnostics' | 'rollups' | 'dailyRollups'][] = [
        ['records', 'records'],
        ['events', 'events'],
        ['diagnostics', 'diagnostics'],
        ['rollup_hour', 'rollups'],
        ['rollup_day', 'dailyRollups'],
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
      if (result.records + result.events + result.diagnostics + result.rollups + result.dailyRollups > 0) {
        const when = new Date(cutoff * 1000).toISOString();
        const message = `retention: deleted ${result.records} records older than ${when} (${days} days), ${result.events} events, ${result.diagnostics} diagnostics, ${result.rollups} hourly and ${result.dailyRollups} daily rollups`;
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

  /** Stores a command as queued and delivers it at once to an online device (else at its next contact). */
  async function enqueueCommand(
    deviceId: string,
    method: string,
    args: unknown,
    createdBy: string,
  ): Promise<CommandView> {
    const row = await repo.insertCommand(db, { deviceId, method, args, createdAt: clock.now(), createdBy });
    await logLine(deviceId, 'command', `Command ${row.id} ${method} queued`);
    deliverSoon(deviceId);
    return toView(row);
  }

  return {
    options,

    now: (): Date => clock.now(),

    /** Where the saved device script to send comes from (with its version, marked sent). */
    setScriptSource(next: ScriptSource | null): void {
      scriptSource = next;
    },

    /** The device-config module's part of the protocol (script acknowledgements, files for devices). */
    setDeviceConfigHooks(next: DeviceConfigHooks | null): void {
      deviceConfigHooks = next;
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
    ingest(item: IngestItem): Promise<IngestOutcome> {
      return queue.push(item);
    },

    /**
     * After an MQTT data publish: delivers commands and pending config when there may be some.
     * A command queued here goes at once; otherwise each device is checked at most every
     * commandCheckIntervalMs, the devices of a moment together in three reads (checkContacts).
     */
    afterContact(deviceId: string): void {
      if (!sink) return;
      if (dirty.has(deviceId)) {
        contactDelivery(deviceId, () => pushToDevice(deviceId));
        return;
      }
      const checked = lastCheck.get(deviceId);
      const now = Date.now();
      if (checked !== undefined && now - checked < options.commandCheckIntervalMs) return;
      lastCheck.set(deviceId, now);
      toCheck.add(deviceId);
      checkTimer ??= setTimeout(() => {
        checkTimer = null;
        checkContacts().catch((error: unknown) => log.warn({ err: error }, 'Delivery check failed'));
      }, CONTACT_CHECK_DELAY_MS);
    },

    /**
     * HTTP ingest answer: the commands (marked sent), pending config and script, as MQTT would
     * publish them; the device acknowledges them with POST /api/ingest/{id}/ack.
     */
    async httpDelivery(deviceId: string): Promise<CommandMessage> {
      return (await takeDelivery(deviceId, 'http')) ?? { commands: [] };
    },

    /** An MQTT acknowledgement (dev/{id}/ack): applied, or refused and logged in the device's server log. */
    async acknowledge(deviceId: string, body: unknown): Promise<void> {
      try {
        await receiveAck(deviceId, body, 'mqtt');
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    },

    /** An HTTP acknowledgement (POST /api/ingest/{id}/ack): the result, or a 4xx AppError (logged). */
    acknowledgeHttp(deviceId: string, body: unknown): Promise<CommandAckResult> {
      return receiveAck(deviceId, body, 'http');
    },

    /** A config or script change waits for the device: sent at once when it is connected, else at its next contact. */
    deliverSoon,

    /** A file stored for this device (Admin.File), or null: another device's file or an unknown id. */
    async deviceFile(deviceId: string, fileId: number) {
      return deviceConfigHooks ? deviceConfigHooks.deviceFile(deviceId, fileId) : null;
    },

    /** Expires unacknowledged commands older than COMMAND_EXPIRY_S (all devices); returns how many. */
    expireCommands: (now: Date) => expireCommands(now),

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
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      // Deliveries not started are dropped (the next contact does them); running ones finish.
      if (checkTimer) clearTimeout(checkTimer);
      checkTimer = null;
      toCheck.clear();
      deliveries.waiting.length = 0;
      if (deliveries.running > 0) await new Promise<void>((resolve) => (deliveries.idle = resolve));
      await exclusive(flushHeld);
      await retentionRun?.catch(() => undefined);
    },

    /** Start-up, before ingest starts: rebuilds derived rows a stopped process held back (see recoverDerived). */
    recoverDerived,

    // ------------------------------------------------------------ retention

    /**
     * Deletes data older than each device's plan keeps it (records, events, diagnostics, rollups);
     * first expires unacknowledged commands older than COMMAND_EXPIRY_S.
     */
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
      const pending = held.latestOf(deviceId);
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

    /** ADMIN with the setup password: deletes the device's data (not its server log). */
    async deleteData(userId: string, deviceId: string, setupPassword: string) {
      await requireAdminWithPassword(userId, deviceId, setupPassword);
      // Not between two ingest batches while derived rows are held: write them first.
      const counts = await exclusive(async () => {
        await flushHeld();
        return db.transaction((tx) => repo.deleteDeviceData(tx, deviceId));
      });
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
      const counts = await exclusive(async () => {
        await flushHeld();
        return db.transaction((tx) => repo.moveDeviceData(tx, deviceId, targetId));
      });
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
      if (q.format === 'config') {
        // The applied config as the import takes it back: {config: {settings}}.
        const config = (await devices.getDevice(deviceId))?.config ?? {};
        const body = (async function* () {
          yield JSON.stringify({ config });
        })();
        const day = clock.now().toISOString().slice(0, 10);
        return { contentType: 'application/json; charset=utf-8', filename: `${deviceId}-config-${day}.json`, body };
      }
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

    /**
     * GET /data, answered as JSON text (a DataResponse) written straight from the database rows:
     * see telemetry.serialize.ts.
     */
    async data(userId: string, deviceId: string, q: DataQuery): Promise<string> {
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
        const byKey = new Map<string, DataPoint[]>();
        for (const row of rows) {
          const list = byKey.get(row.key);
          if (list) list.push({ v: row.v, ts: row.bucket });
          else byKey.set(row.key, [{ v: row.v, ts: row.bucket }]);
        }
        // Keys in code-unit order (the same on both engines), each key's buckets newest first.
        // No prototype: a device key may be called 'constructor' or 'toString'.
        const data = Object.create(null) as Record<string, DataPoint[]>;
        for (const key of [...byKey.keys()].sort()) data[key] = byKey.get(key)!.sort((x, y) => y.ts - x.ts);
        return JSON.stringify(data);
      };
      // Two independent reads: side by side on PostgreSQL's pool.
      const [dataJson, events] = await Promise.all([points(), repo.selectEvents(db, deviceId, range, dataPoints)]);
      return dataResponseJson(deviceId, dataJson, events, bucketSeconds);
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
      await expireCommands(clock.now(), deviceId);
      const rows = await repo.selectCommands(
        db,
        deviceId,
        Math.min(MAX_DATA_POINTS, Math.max(1, Math.floor(dataPoints ?? 100))),
      );
      return { deviceid: deviceId, commands: rows.map(toView) };
    },

    async queueCommand(userId: string, deviceId: string, method: string, args: unknown): Promise<CommandView> {
      await requireCapability(userId, deviceId, method === 'Admin.Trigger' ? 'triggers' : 'editDeviceSettings');
      return enqueueCommand(deviceId, method, args, userId);
    },

    /** Queues a command for a staff call (provisioning test): the caller checked staff access, no device role applies. */
    queueStaffCommand(deviceId: string, method: string, args: unknown, createdBy: string): Promise<CommandView> {
      return enqueueCommand(deviceId, method, args, createdBy);
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
