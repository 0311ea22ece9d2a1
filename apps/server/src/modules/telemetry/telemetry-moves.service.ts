/**
 * A device's data as a whole: deleting it and moving it to another device (ADMIN, with the
 * device's setup password), between two ingest batches, each in one transaction and logged.
 */
import type { DeleteDataResult, TransferDataResult } from '@portal/core';
import type { Db } from '../../db/db';
import { AppError } from '../../errors';
import type { AccessService } from '../access/access.service';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { DeviceRegistry } from '../devices/devices.registry';
import * as moves from './telemetry-moves.repository';
import type { IngestWriter } from './ingest-writer';

/** What deleting and moving a device's data offer (part of TelemetryService). */
export interface TelemetryMoves {
  /** ADMIN with the setup password: deletes the device's data (not its server log). */
  deleteData(userId: string, deviceId: string, setupPassword: string): Promise<DeleteDataResult>;
  /** ADMIN of both devices, with the source's setup password: moves the data in one transaction. */
  transferData(userId: string, deviceId: string, setupPassword: string, targetId: string): Promise<TransferDataResult>;
}

export const INVALID_SETUP_PASSWORD = 'Invalid setup password.';

export function createTelemetryMoves(deps: {
  db: Db;
  access: AccessService;
  devices: Pick<DeviceRegistry, 'checkSetupPassword'>;
  deviceLog: DeviceLogService;
  /** Runs a change between two ingest batches, held derived rows written first. */
  writer: Pick<IngestWriter, 'exclusiveFlushed'>;
}): TelemetryMoves {
  const { db, access, devices, deviceLog, writer } = deps;

  /** ADMIN of the device and its setup password; 404 stranger, 403 otherwise. */
  async function requireAdminWithPassword(userId: string, deviceId: string, setupPassword: string): Promise<void> {
    await access.authorize(userId, deviceId, 'adminSettings');
    if (!(await devices.checkSetupPassword(deviceId, setupPassword)))
      throw new AppError(403, 'FORBIDDEN', INVALID_SETUP_PASSWORD);
  }

  return {
    /** ADMIN with the setup password: deletes the device's data (not its server log). */
    async deleteData(userId: string, deviceId: string, setupPassword: string): Promise<DeleteDataResult> {
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
    async transferData(
      userId: string,
      deviceId: string,
      setupPassword: string,
      targetId: string,
    ): Promise<TransferDataResult> {
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
  };
}
