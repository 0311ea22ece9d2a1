/**
 * Telemetry: a device's data. Ingest goes through the writer (ingest-writer.ts) and retention
 * runs here; the reads (telemetry-reads.service.ts), deleting and moving data
 * (telemetry-moves.service.ts) and import and export (telemetry-import-export.service.ts) are
 * parts of their own, put together into one service. Devices are reached through the device
 * registry, access through the one gate, command expiry through the delivery module.
 */
import type { FastifyBaseLogger } from 'fastify';
import { dataPlan } from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import type { IngestItem, IngestOutcome } from './ingest-batch';
import type { AccessService } from '../access/access.service';
import type { DeliveryService } from '../delivery/delivery.service';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { DeviceRegistry } from '../devices/devices.registry';
import { createIngestWriter, DEFAULT_WRITER_OPTIONS, type StoredRecord, type WriterOptions } from './ingest-writer';
import { createRetention, type RetentionOptions, type RetentionResult } from './retention';
import { createTelemetryReads, type TelemetryReads } from './telemetry-reads.service';
import { createTelemetryMoves, type TelemetryMoves } from './telemetry-moves.service';
import { createTelemetryImportExport, type TelemetryImportExport } from './telemetry-import-export.service';

export type { RetentionResult } from './retention';
export type { GroupDataQuery } from './group-data.repository';
export type { GroupKeyAggregate, HourPeriod } from './group-metrics.repository';
export { csvCell, EXPORT_PAGE_SIZE } from './export';
export { bucketSource, bucketWidth } from './downsample';
export { GROUP_DATA_CACHE_BYTES } from './telemetry-reads.service';
export { INVALID_SETUP_PASSWORD } from './telemetry-moves.service';

/** What telemetry offers: ingest and retention here, with its reads, data moves, import and export. */
export interface TelemetryService extends TelemetryReads, TelemetryMoves, TelemetryImportExport {
  /** The writer's and retention's options in force (tests change retentionBatchSize). */
  readonly options: TelemetryOptions;
  /** The server's time (the clock ingest stamps messages with). */
  now(): Date;
  /** Device credentials check (constant time in the device registry). */
  verifyDevice(deviceId: string, key: string): Promise<boolean>;
  /** Whether ingest for this device is thinned (Basic plan), or null for an unknown device. */
  ingestPlan(deviceId: string): Promise<{ basic: boolean } | null>;
  /** Queues a message for the writer; resolves once it is stored (or refused and logged). */
  ingest(item: IngestItem): Promise<IngestOutcome>;
  /** Writes one line of the device's server log now. */
  log(deviceId: string, kind: string, message: string): Promise<void>;
  /** Messages waiting in the writer's queue. */
  queueDepth(): number;
  /** Messages queued or being written, not yet acknowledged. */
  pendingWrites(): number;
  /** Start-up, before ingest starts: rebuilds derived rows a stopped process held back. */
  recoverDerived(): Promise<{ since: Date; hours: number } | null>;
  /** Stops retention and the writer (what is queued is written first). */
  close(): Promise<void>;
  /**
   * Deletes data older than each device's plan keeps it (records, events, diagnostics, rollups);
   * first expires unacknowledged commands older than COMMAND_EXPIRY_S.
   */
  runRetention(now: Date): Promise<RetentionResult[]>;
  /** Starts the periodic retention job (stopped by close). */
  startRetention(): void;
}

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
}): TelemetryService {
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
  const retention = createRetention({
    db,
    clock,
    log,
    deviceLog,
    devices,
    expireCommands: (now) => delivery.expireCommands(now),
    options,
  });

  async function ingestPlan(deviceId: string): Promise<{ basic: boolean } | null> {
    const device = await devices.getDevice(deviceId);
    if (!device) return null;
    return { basic: dataPlan(device, clock.now().getTime()) === 'Basic' };
  }

  return {
    options,

    now: (): Date => clock.now(),

    // ------------------------------------------------------------ ingest

    verifyDevice(deviceId: string, key: string): Promise<boolean> {
      return devices.verifyDeviceKey(deviceId, key);
    },

    ingestPlan,

    ingest(item: IngestItem): Promise<IngestOutcome> {
      return writer.ingest(item);
    },

    log: (deviceId: string, kind: string, message: string) => deviceLog.write(deviceId, kind, message),

    queueDepth: () => writer.queueDepth(),

    pendingWrites: () => writer.pendingWrites(),

    recoverDerived: () => writer.recoverDerived(),

    async close(): Promise<void> {
      await retention.close();
      await writer.close();
    },

    // ------------------------------------------------------------ retention

    runRetention: (now: Date): Promise<RetentionResult[]> => retention.run(now),

    startRetention: () => retention.start(),

    // ------------------------------------------------------------ reads, data moves, import and export

    ...createTelemetryReads({ db, clock, access, devices, deviceLog, writer }),
    ...createTelemetryMoves({ db, access, devices, deviceLog, writer }),
    ...createTelemetryImportExport({ db, clock, access, devices, deviceLog, writer, ingestPlan }),
  };
}
