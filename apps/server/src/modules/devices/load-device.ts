/** A device's row for the device calls, or the gate's 404 'Device not found' when there is none. */
import type { Db } from '../../db/db';
import { deviceNotFound } from '../access/access.service';
import * as repo from './devices.repository';
import type { DeviceRow } from './devices.repository';

export async function loadDevice(db: Db, deviceId: string): Promise<DeviceRow> {
  const row = await repo.findDevice(db, deviceId);
  if (!row) throw deviceNotFound();
  return row;
}
