/**
 * The ingest writer: one bounded queue in front of a group commit. Records, events,
 * diagnostics and server-log lines go into their own batch's transaction and are acknowledged
 * after its commit; the rows derived from them (rollups, latest values, contact times) go with
 * their batch under light load and are held and written later under load (see the comments
 * below and docs/decisions.md 'Ingest acknowledgement'). The pure part (validation, rows of a
 * batch) is ingest-batch.ts.
 */
import type { FastifyBaseLogger } from 'fastify';
import { FIRMWARE_PATTERN, reportedIntervals } from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { IngestQueue } from './ingest-queue';
import {
  DerivedRows,
  assembleBatch,
  busMessageRows,
  eventRows,
  prepareItem,
  rowKey,
  thinBasic,
  type Candidate,
  type IngestItem,
  type IngestOutcome,
  type PreparedItem,
} from './ingest-batch';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { DeviceRegistry } from '../devices/devices.registry';
import * as recovery from './telemetry-recovery.repository';
import type { DiagnosticsRow } from './telemetry.rows';
import * as repo from './telemetry-writes.repository';

/** A record a batch stored, and how it came (alert detection leaves imported history out). */
export interface StoredRecord {
  deviceId: string;
  record: Candidate['record'];
  source: IngestItem['source'];
}

/** What the writer needs of the device registry (contact times, reported firmware and intervals). */
export type WriterDevices = Pick<DeviceRegistry, 'markContacts' | 'reportFirmware' | 'reportIntervals'>;

export interface WriterOptions {
  queueCapacity: number;
  batchSize: number;
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

export const DEFAULT_WRITER_OPTIONS: WriterOptions = {
  queueCapacity: 5000,
  batchSize: 2000,
  derivedHoldMs: 5000,
  lightIngestPerSecond: 200,
  derivedIdleWriteMs: 20,
};

/** Start-up rebuilds derived rows from the records received this long before the oldest held one. */
const UNFLUSHED_MARGIN_MS = 60_000;
/** At most this many held rollup and latest rows (memory bound): more are written at once. */
const MAX_HELD_ROWS = 100_000;

export function createIngestWriter(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  devices: WriterDevices;
  deviceLog: DeviceLogService;
  options: WriterOptions;
  /** Told the records each batch stored, after its commit (alert detection); must not throw or wait. */
  onStored?: (stored: StoredRecord[]) => void;
}) {
  const { db, clock, log, devices, deviceLog, options } = deps;

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
    const { rollups, latest, bus, contacts } = rows.rows(deviceIds);
    await repo.upsertRollups(tx, rollups);
    await repo.upsertLatest(tx, latest);
    await repo.upsertBusMessages(tx, bus);
    await devices.markContacts(contacts, tx);
  }

  function heldWritten(): void {
    held = new DerivedRows();
    heldMark = null;
  }

  /** The firmware devices report in their diagnostics (`fw`, a firmware name) goes into their records, logged when it changes. */
  async function reportFirmware(tx: Db, diagnostics: DiagnosticsRow[], now: Date): Promise<void> {
    const reports = new Map<string, string>();
    for (const d of diagnostics) {
      const fw = (d.data as Record<string, unknown>).fw;
      if (typeof fw === 'string' && FIRMWARE_PATTERN.test(fw)) reports.set(d.device_id, fw);
    }
    const changed = await devices.reportFirmware(reports, tx);
    await deviceLog.writeRows(
      changed.map((c) => ({
        device_id: c.id,
        ts: now.toISOString(),
        kind: 'firmware',
        message: `firmware now ${c.fw} (was ${c.previous}), as the device reports`,
      })),
      tx,
    );
  }

  /**
   * The intervals devices report running in their diagnostics (`base_interval`, `transmit_interval`)
   * go into their applied config, logged when they change: the one interval (core
   * appliedIntervalSeconds) the device page's polling, 'No Recent Contact', Offline and the offline
   * alert use.
   */
  async function reportIntervals(tx: Db, diagnostics: DiagnosticsRow[], now: Date): Promise<void> {
    const reports = new Map<string, Record<string, number>>();
    for (const d of diagnostics) {
      const intervals = reportedIntervals(d.data);
      if (intervals) reports.set(d.device_id, intervals);
    }
    const changed = await devices.reportIntervals(reports, tx);
    const figure = (base: unknown, transmit: unknown) =>
      `base_interval ${typeof base === 'number' ? base : 'default'} s, transmit_interval ${typeof transmit === 'number' ? transmit : 'default'}`;
    await deviceLog.writeRows(
      changed.map((c) => ({
        device_id: c.id,
        ts: now.toISOString(),
        kind: 'config',
        message: `interval now ${figure(c.base, c.transmit)} (was ${figure(c.before_base, c.before_transmit)}), as the device reports`,
      })),
      tx,
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
      // Every device whose versioned rows this transaction writes, locked first and in order.
      if (!single) {
        const devicesWritten = batch.candidates.map((c) => c.deviceId);
        await repo.lockDeviceData(tx, writeHeld ? [...devicesWritten, ...held.deviceIds()] : devicesWritten);
      }
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
      await reportIntervals(tx, batch.diagnostics, now);
      await deviceLog.writeRows(batch.serverLog, tx);
      if (writeHeld) {
        const derived = new DerivedRows();
        addDerived(derived, fresh, contacts, nowS);
        await writeDerived(tx, held.isEmpty ? derived : DerivedRows.combine(held, derived));
        if (heldMark !== null) await recovery.updateUnflushedSince(tx, null);
      } else if (contacts.size > 0) {
        const since = earliestReceivedMs - UNFLUSHED_MARGIN_MS;
        if (heldMark === null || since < heldMark) {
          await recovery.updateUnflushedSince(tx, new Date(since));
          mark = since;
        }
      }
    };
    if (single) await store(db);
    else await db.transaction(store);
    if (fresh.length > 0 && deps.onStored) {
      deps.onStored(
        fresh.map((c) => ({ deviceId: c.deviceId, record: c.record, source: items[c.itemIndex]!.item.source })),
      );
    }
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
      if (heldMark !== null) await recovery.updateUnflushedSince(db, null);
      heldWritten();
    }
  }

  /** Writes the held rows now (before a delete or transfer, on close). Call inside `exclusive`. */
  async function flushHeld(): Promise<void> {
    if (held.isEmpty || options.neverWriteDerived) return;
    try {
      await db.transaction(async (tx) => {
        await repo.lockDeviceData(tx, held.deviceIds());
        await writeDerived(tx, held);
        if (heldMark !== null) await recovery.updateUnflushedSince(tx, null);
      });
      heldWritten();
    } catch (error) {
      log.warn({ err: error }, 'Writing the held derived rows failed; writing them device by device');
      await writeHeldIsolated();
    }
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
  async function rebuildDerived(tx: Db, hours: recovery.DeviceBucket[], since: Date, deviceIds: string[] | null) {
    await recovery.rebuildRollupHours(tx, hours);
    const days = new Map<string, recovery.DeviceBucket>();
    for (const h of hours) {
      const bucket = Math.floor(h.bucket / 86_400) * 86_400;
      days.set(`${h.device_id}\u0000${bucket}`, { device_id: h.device_id, bucket });
    }
    await recovery.rebuildRollupDays(tx, [...days.values()]);
    await recovery.restoreLatestSince(tx, since, deviceIds);
    await repo.upsertBusMessages(tx, busMessageRows(await recovery.selectBusRecordsSince(tx, since, deviceIds)));
  }

  /**
   * Start-up, before ingest: when the last process died with derived rows held back, rebuilds
   * them from the records received since ingest_state.unflushed_since (idempotent).
   */
  async function recoverDerived(): Promise<{ since: Date; hours: number } | null> {
    const since = await recovery.selectUnflushedSince(db);
    if (since === null) return null;
    const result = await db.transaction(async (tx) => {
      const hours = await recovery.selectHoursReceivedSince(tx, since);
      await rebuildDerived(tx, hours, since, null);
      await devices.markContacts(await recovery.selectContactsSince(tx, since), tx);
      await recovery.updateUnflushedSince(tx, null);
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

  return {
    /** Queues a message for the writer; resolves once it is stored (or refused and logged). */
    ingest(item: IngestItem): Promise<IngestOutcome> {
      return queue.push(item);
    },

    /** Runs `fn` between two batches, after the held derived rows are written (a delete or transfer of data). */
    exclusiveFlushed<T>(fn: () => Promise<T>): Promise<T> {
      return exclusive(async () => {
        await flushHeld();
        return fn();
      });
    },

    /** The latest values the writer holds back for a device (newer than or as new as the stored ones). */
    heldLatest(deviceId: string) {
      return held.latestOf(deviceId);
    },

    /** Start-up, before ingest starts: rebuilds derived rows a stopped process held back. */
    recoverDerived,

    /** Messages waiting in the queue. */
    queueDepth(): number {
      return queue.length;
    },

    /** Messages queued or being written, not yet acknowledged. */
    pendingWrites(): number {
      return queue.pending;
    },

    /** Stops taking messages, writes what is queued and the held rows. */
    async close(): Promise<void> {
      await queue.close();
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      await exclusive(flushHeld);
    },
  };
}

export type IngestWriter = ReturnType<typeof createIngestWriter>;
