/**
 * Provisioning a device (the /api/prov-portal-* calls of provisioning staff): creating it (its
 * credentials answered once) or editing it, its provisioning record, whether an id is taken, its
 * provisioning log and the provisioning test run. The devices table is the devices module's: this
 * service asks the device registry for it, and keeps the provisioning log.
 */
import {
  PROV_MESSAGES,
  PROV_TEST_COMMAND,
  provTestLogMessage,
  type CommandView,
  type ProvDevice,
  type ProvEditDeviceBody,
  type ProvLogEntry,
  type ProvRunTestBody,
} from '@portal/core';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import { conflict } from '../../errors';
import type { PublicAddresses } from '../../public-addresses';
import type { User } from '../auth/auth.service';
import { deviceNotFound } from '../access/access.service';
import type { DeliveryService } from '../delivery/delivery.service';
import type { DeviceRegistry } from '../devices/devices.registry';
import type { ProvisionedDevice } from '../devices/devices.summary';
import * as repo from './provisioning.repository';

/** A device's provisioning log as answered. */
export interface ProvLog {
  deviceid: string;
  entries: ProvLogEntry[];
}

/** What provisioning a device offers the routes. */
export interface ProvDevicesService {
  /** Creates a device (answered with its credentials, once) or edits an existing one. */
  provision(
    id: string,
    body: ProvEditDeviceBody,
    author: string | null,
  ): Promise<{ created: boolean; device: ProvDevice | (ProvDevice & ProvisionedDevice) }>;
  /** The provisioning record of a device; 404 when there is none. */
  provDevice(id: string): Promise<ProvDevice>;
  /** Whether a device with the id exists (provisioning asks before it creates one). */
  provDeviceExists(id: string): Promise<{ deviceid: string; exists: boolean }>;
  /** The provisioning log of a device; 404 when there is none. */
  provLog(id: string): Promise<ProvLog>;
  /** Adds a line to the provisioning log of a device; answers the log. */
  addProvLog(id: string, message: string, author: string | null): Promise<ProvLog>;
  /**
   * Queues the provisioning test (command Prov.RunTest {method, fw}) and logs the request in the
   * provisioning log. A device a customer has added is locked: provLockOverrideCode must then
   * be its setup password (409 otherwise, nothing queued).
   */
  runProvTest(id: string, body: ProvRunTestBody, user: User): Promise<CommandView>;
}

export interface ProvDevicesDeps {
  db: Db;
  clock: Clock;
  /** Whether PUBLIC_URL is set: the provisioning record says so, as its label's QR code opens localhost otherwise. */
  addresses: Pick<PublicAddresses, 'configured'>;
  /** The devices table as the devices module offers it. */
  devices: Pick<DeviceRegistry, 'createDevice' | 'editDevice' | 'provRecord' | 'checkSetupPassword'>;
  /** Queues a command for the device on behalf of staff (the delivery module), for the provisioning test run. */
  delivery: Pick<DeliveryService, 'queueCommand'>;
}

export function createProvDevicesService(deps: ProvDevicesDeps): ProvDevicesService {
  const { db, clock, devices } = deps;

  /** A provisioning record as answered: with whether its label's QR code works from a phone (PUBLIC_URL set). */
  function withLabelFacts<T extends object>(record: T): T & Pick<ProvDevice, 'publicUrlConfigured'> {
    return { ...record, publicUrlConfigured: deps.addresses.configured };
  }

  async function loadRecord(id: string) {
    const record = await devices.provRecord(id);
    if (!record) throw deviceNotFound();
    return record;
  }

  async function provLog(id: string): Promise<ProvLog> {
    await loadRecord(id);
    const rows = await repo.listProvLog(db, id);
    return {
      deviceid: id,
      entries: rows.map((r) => ({ id: r.id, message: r.message, author: r.author, ts: r.created_at.toISOString() })),
    };
  }

  return {
    async provision(id, body, author) {
      const edited = await devices.editDevice(id, body, author);
      if (edited) return { created: false, device: withLabelFacts(edited) };
      const device = await devices.createDevice(id, body, author);
      if (!device) throw conflict('The device was created at the same time by another request.');
      return { created: true, device: withLabelFacts(device) };
    },

    async provDevice(id) {
      return withLabelFacts(await loadRecord(id));
    },

    async provDeviceExists(id) {
      return { deviceid: id, exists: (await devices.provRecord(id)) !== null };
    },

    provLog,

    async addProvLog(id, message, author) {
      await loadRecord(id);
      await repo.insertProvLogLines(db, [id], message, author, clock.now());
      return provLog(id);
    },

    async runProvTest(id, body, user) {
      const record = await loadRecord(id);
      const locked = record.added;
      if (locked && !(await devices.checkSetupPassword(id, body.provLockOverrideCode)))
        throw conflict(PROV_MESSAGES.locked);
      const command = await deps.delivery.queueCommand(
        id,
        PROV_TEST_COMMAND,
        { method: body.method, fw: body.fw },
        user.id,
      );
      await repo.insertProvLogLines(
        db,
        [id],
        provTestLogMessage(body, command.commandID, locked),
        user.email,
        clock.now(),
      );
      return command;
    },
  };
}
