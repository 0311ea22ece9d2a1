/**
 * The device's server log: every module writes its lines here (ingest refusals, deliveries,
 * config changes, retention), in the caller's transaction when it gives one.
 */
import type { ServerLogResponse } from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import * as repo from './device-log.repository';

export type { ServerLogRow } from './device-log.repository';

export interface DeviceLogService {
  /** Writes one line now. */
  write(deviceId: string, kind: string, message: string): Promise<void>;
  /** Writes lines as given, in `tx` when it is a transaction of the caller's. */
  writeRows(rows: repo.ServerLogRow[], tx?: Db): Promise<void>;
  /**
   * The newest `limit` lines, newest first (of one kind, after the line `before`: see
   * selectServerLog), whether older ones remain, and every kind the device's log holds.
   */
  list(
    deviceId: string,
    limit: number,
    options?: { kind?: string; before?: number },
  ): Promise<Omit<ServerLogResponse, 'deviceid'>>;
}

/** Longest message kept; a longer one is cut. */
const MAX_MESSAGE_LENGTH = 2000;

export function createDeviceLogService(deps: { db: Db; clock: Clock }): DeviceLogService {
  const { db, clock } = deps;
  return {
    async write(deviceId: string, kind: string, message: string): Promise<void> {
      await repo.insertServerLog(db, [
        { device_id: deviceId, ts: clock.now().toISOString(), kind, message: message.slice(0, MAX_MESSAGE_LENGTH) },
      ]);
    },

    writeRows(rows: repo.ServerLogRow[], tx: Db = db): Promise<void> {
      return repo.insertServerLog(tx, rows);
    },

    async list(deviceId: string, limit: number, options: { kind?: string; before?: number } = {}) {
      const [rows, kinds] = await Promise.all([
        repo.selectServerLog(db, deviceId, limit + 1, options),
        repo.selectServerLogKinds(db, deviceId),
      ]);
      const entries = rows
        .slice(0, limit)
        .map((r) => ({ id: r.id, ts: new Date(r.ts).getTime() / 1000, kind: r.kind, message: r.message }));
      return { entries, more: rows.length > limit, kinds };
    },
  };
}
