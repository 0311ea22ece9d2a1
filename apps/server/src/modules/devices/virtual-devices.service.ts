/**
 * Virtual devices (DESIGN.md section 5, ledger I-05): devices with no hardware, created through the
 * API with an id '0-' + 7 uppercase letters or digits, fed by HTTP ingest with their own device key,
 * and renamed with PORTAL_deviceName (the spec's '0-' rule). The creator becomes the device's ADMIN
 * and its trial starts, as for the first user to add a real device; everything else (pages, groups,
 * sharing, data) is a device's like any other.
 */
import { giveBrokerAccount, NO_BROKER_ACCOUNTS, type BrokerAccounts } from '../broker/broker-accounts.service';
import {
  DEFAULT_FIRMWARE,
  DEVICE_ID_ALPHABET,
  API_CREDENTIAL_MESSAGES,
  VIRTUAL_DEVICES_MAX,
  defaultDeviceConfig,
  deviceFamily,
  newVirtualDeviceId,
  type DeviceModel,
  type VirtualDeviceCreated,
} from '@portal/core';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import { AppError, conflict } from '../../errors';
import { randomChars, randomToken, sha256 } from '../../security';
import type { User } from '../auth/auth.service';
import type { GroupsService } from '../groups/groups.service';
import * as devicesRepo from './devices.repository';
import { newSetupPassword } from './devices.summary';
import * as repo from './virtual-devices.repository';

/** The model of a virtual device created without one. */
export const VIRTUAL_DEVICE_DEFAULT_MODEL: DeviceModel = 'ORB-C1';
/** New ids drawn before giving up (a clash among 36^7 ids is rare). */
const ID_ATTEMPTS = 5;

/** What virtual devices offer their route. */
export interface VirtualDevicesService {
  /**
   * Creates a virtual device for `user` (its ADMIN; the trial starts), in the group `groupid` when
   * given (one where the user may manage devices, else 404/403 and nothing is made); its device key
   * is in this answer only.
   */
  create(
    user: User,
    body: { name: string; model?: DeviceModel | undefined; groupid?: string | undefined },
  ): Promise<VirtualDeviceCreated>;
}

export interface VirtualDevicesDeps {
  db: Db;
  clock: Clock;
  groups: GroupsService;
  brokerAccounts?: BrokerAccounts;
}

export function createVirtualDevicesService(deps: VirtualDevicesDeps): VirtualDevicesService {
  const { db, clock, groups } = deps;

  return {
    async create(user, body) {
      const model = body.model ?? VIRTUAL_DEVICE_DEFAULT_MODEL;
      const fw = DEFAULT_FIRMWARE;
      for (let attempt = 0; attempt < ID_ATTEMPTS; attempt += 1) {
        const id = newVirtualDeviceId((n) => randomChars(DEVICE_ID_ALPHABET, n));
        const deviceKey = randomToken();
        const setupPassword = newSetupPassword();
        const created = await db.transaction(async (tx) => {
          if (body.groupid !== undefined) await groups.checkPlacement(tx, user.id, body.groupid);
          if ((await repo.lockAndCount(tx, user.id)) >= VIRTUAL_DEVICES_MAX) {
            throw new AppError(409, 'CONFLICT', API_CREDENTIAL_MESSAGES.tooManyVirtualDevices);
          }
          const now = clock.now();
          const inserted = await devicesRepo.insertDevice(tx, {
            id,
            model,
            family: deviceFamily(model),
            fw,
            keyHash: sha256(deviceKey),
            setupPassword,
            config: defaultDeviceConfig({ id, model, name: body.name, fw }),
            // API keys work on the default brand only.
            brand: 'default',
            createdAt: now,
          });
          if (!inserted) return false;
          await repo.insertVirtualDevice(tx, id, user.id, now);
          await devicesRepo.insertProvLog(tx, id, `Created as a virtual device: ${model}`, user.email, now);
          await devicesRepo.updateSettings(tx, id, { portalName: body.name });
          await devicesRepo.upsertGrant(tx, id, user.id, 'ADMIN', now);
          await devicesRepo.startTrial(tx, id, now.getTime() / 1000, false);
          await giveBrokerAccount(deps.brokerAccounts ?? NO_BROKER_ACCOUNTS, id, deviceKey);
          if (body.groupid !== undefined) {
            await groups.placeClaimed(tx, user, body.groupid, id, `Added virtual device ${id}`);
          }
          return true;
        });
        if (created) {
          return { deviceid: id, name: body.name, model, deviceKey, setupPassword, groupid: body.groupid ?? null };
        }
      }
      throw conflict('No free virtual device id was found; please try again.');
    },
  };
}
