/**
 * Telemetry's import and export (GET /export, POST /import with records): a time range of
 * records exported as CSV or JSON, or the applied config (export.ts); records imported through
 * the ingest writer, each checked like a device's.
 */
import {
  MAX_IMPORT_RECORDS,
  RECORD_LIMITS,
  parseDeviceRecord,
  type ExportQuery,
  type ImportResult,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError } from '../../errors';
import type { AccessService } from '../access/access.service';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { DeviceRegistry } from '../devices/devices.registry';
import type { IngestWriter } from './ingest-writer';
import { exportFile, type ExportFile } from './export';

/** What telemetry's import and export offer (part of TelemetryService). */
export interface TelemetryImportExport {
  /** Any role: the records of a time range as CSV or JSON, or the applied config, streamed. */
  exportData(userId: string, deviceId: string, q: ExportQuery): Promise<ExportFile>;
  /** editDeviceSettings: stores records through the ingest writer; refused ones are listed by index. */
  importRecords(userId: string, deviceId: string, records: unknown[]): Promise<ImportResult>;
}

export function createTelemetryImportExport(deps: {
  db: Db;
  clock: Clock;
  access: AccessService;
  devices: Pick<DeviceRegistry, 'getDevice'>;
  deviceLog: DeviceLogService;
  writer: Pick<IngestWriter, 'ingest'>;
  /** Whether ingest for this device is thinned (Basic plan), or null for an unknown device. */
  ingestPlan: (deviceId: string) => Promise<{ basic: boolean } | null>;
}): TelemetryImportExport {
  const { db, clock, access, devices, deviceLog, writer, ingestPlan } = deps;

  return {
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
    async importRecords(userId: string, deviceId: string, records: unknown[]): Promise<ImportResult> {
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
  };
}
