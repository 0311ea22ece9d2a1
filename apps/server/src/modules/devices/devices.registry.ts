/**
 * The devices table as other modules read and write it: making and editing a device (for
 * provisioning), its summary, key and setup password checks, contact times and reported firmware
 * (the pending config is the delivery module's). Created before the modules that need it, so
 * wiring stays one-way.
 */
import { giveBrokerAccount, NO_BROKER_ACCOUNTS, type BrokerAccounts } from '../broker/broker-accounts.service';
import {
  DEFAULT_FIRMWARE,
  isDeviceRouteId,
  defaultDeviceConfig,
  deviceFamily,
  type ProvEditDeviceBody,
} from '@portal/core';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import { randomToken, sameDigest, sha256 } from '../../security';
import { deviceNotFound } from '../access/access.service';
import * as repo from './devices.repository';
import type { ReportedIntervalChange } from './devices.repository';
import {
  asRecord,
  newSetupPassword,
  toProvDevice,
  toSummary,
  type DeviceSummary,
  type ProvisionedDevice,
  type ProvRecord,
} from './devices.summary';

/** What the devices table offers the other modules (and tests and tools, as app.services.devices). */
export interface DeviceRegistry {
  /** Creates a device with a new key and setup password (returned once), with its first provisioning-log line and broker account; null when the id is taken. */
  createDevice(id: string, body: ProvEditDeviceBody, author: string | null): Promise<ProvisionedDevice | null>;
  /** True when `key` is the device's key; constant time, and as slow for unknown ids. */
  verifyDeviceKey(id: string, key: string): Promise<boolean>;
  /** What other modules read of a device, or null for none (or an id that is no device's). */
  getDevice(id: string): Promise<DeviceSummary | null>;
  /** The provisioning record of a device (provisioning staff), or null when there is none. */
  provRecord(id: string): Promise<ProvRecord | null>;
  /** Edits a device's model, firmware, name and brand (with a provisioning-log line); null when there is no such device. */
  editDevice(id: string, body: ProvEditDeviceBody, author: string | null): Promise<ProvRecord | null>;
  /** Records the contacts of several devices at once (id -> epoch seconds), in `tx` when given; last_contact only moves forward. */
  markContacts(contacts: ReadonlyMap<string, number>, tx?: Db): Promise<void>;
  /** Firmware the devices report running (diagnostics `fw`); returns those that changed. */
  reportFirmware(
    reports: ReadonlyMap<string, string>,
    tx?: Db,
  ): Promise<{ id: string; previous: string; fw: string }[]>;
  /** Intervals the devices report running into their applied config; returns those that changed. */
  reportIntervals(reports: ReadonlyMap<string, Record<string, number>>, tx?: Db): Promise<ReportedIntervalChange[]>;
  /** True when `password` is the device's setup password (constant time; false for an unknown device). */
  checkSetupPassword(deviceId: string, password: string): Promise<boolean>;
  /** Sets the applied config. */
  setAppliedConfig(id: string, config: Record<string, unknown>): Promise<void>;
}

/** The config with settings.device's model, fw (and name when given) replaced. */
function withDeviceBlock(
  config: Record<string, unknown>,
  fields: { model: string; fw: string; name?: string | undefined },
): Record<string, unknown> {
  const settings = asRecord(config.settings);
  const device = asRecord(settings.device);
  return {
    ...config,
    settings: {
      ...settings,
      device: {
        ...device,
        model: fields.model,
        fw: fields.fw,
        ...(fields.name !== undefined ? { name: fields.name } : {}),
      },
    },
  };
}

export function createDeviceRegistry(deps: { db: Db; clock: Clock; brokerAccounts?: BrokerAccounts }): DeviceRegistry {
  const { db, clock } = deps;
  const accounts = deps.brokerAccounts ?? NO_BROKER_ACCOUNTS;
  let dummyKeyHash: string | undefined;

  return {
    /** Creates a device with a new key and setup password (returned once); null when the id is taken. */
    async createDevice(id: string, body: ProvEditDeviceBody, author: string | null): Promise<ProvisionedDevice | null> {
      const deviceKey = randomToken();
      const setupPassword = newSetupPassword();
      const fw = body.fw ?? DEFAULT_FIRMWARE;
      const config = defaultDeviceConfig({ id, model: body.model, name: body.name ?? id, fw });
      const now = clock.now();
      const family = deviceFamily(body.model);
      const brand = body.brand ?? 'default';
      const device = { id, model: body.model, family, fw, keyHash: sha256(deviceKey), setupPassword, config, brand };
      // The device and its first provisioning-log line, or neither.
      const inserted = await db.transaction(async (tx) => {
        if (!(await repo.insertDevice(tx, { ...device, createdAt: now }))) return false;
        await repo.insertProvLog(
          tx,
          id,
          `Provisioned: ${body.model} ${fw}${brand === 'default' ? '' : ` for the ${brand} brand`}`,
          author,
          now,
        );
        // The broker's account before the commit: refused, and the device is not made either.
        await giveBrokerAccount(accounts, id, deviceKey);
        return true;
      });
      if (!inserted) return null;
      const row = await repo.findDevice(db, id);
      return { ...toProvDevice(row!), setupPassword, deviceKey };
    },

    /** True when `key` is the device's key; constant time, and as slow for unknown ids. */
    async verifyDeviceKey(id: string, key: string): Promise<boolean> {
      const stored = isDeviceRouteId(id) ? await repo.findKeyHash(db, id) : null;
      dummyKeyHash ??= sha256(randomToken());
      const match = sameDigest(sha256(key), stored ?? dummyKeyHash);
      return stored !== null && match;
    },

    async getDevice(id: string): Promise<DeviceSummary | null> {
      if (!isDeviceRouteId(id)) return null;
      const row = await repo.findDevice(db, id);
      return row ? toSummary(row) : null;
    },

    /** The provisioning record of a device (provisioning staff), or null when there is none. */
    async provRecord(id: string): Promise<ProvRecord | null> {
      const row = await repo.findDevice(db, id);
      return row ? toProvDevice(row) : null;
    },

    /**
     * Edits a device's model, firmware, name and brand, in its record and its config's device
     * block, with a line in its provisioning log; null when there is no such device.
     */
    async editDevice(id: string, body: ProvEditDeviceBody, author: string | null): Promise<ProvRecord | null> {
      const existing = await repo.findDevice(db, id);
      if (!existing) return null;
      const family = deviceFamily(body.model);
      const now = clock.now();
      const fw = body.fw ?? existing.fw;
      const brand = body.brand ?? existing.brand;
      const config = withDeviceBlock(existing.config, { model: body.model, fw, name: body.name });
      await repo.updateProvisioning(db, id, { model: body.model, family, fw, config, brand });
      await repo.insertProvLog(
        db,
        id,
        `Edited: ${body.model} ${fw}${body.name !== undefined ? ` name ${body.name}` : ''}${brand !== existing.brand ? ` brand ${brand}` : ''}`,
        author,
        now,
      );
      const row = await repo.findDevice(db, id);
      if (!row) throw deviceNotFound();
      return toProvDevice(row);
    },

    /**
     * Records the contacts of several devices at once (device id -> epoch seconds), in `tx` when
     * given (the ingest writer's transaction); last_contact only moves forward.
     */
    async markContacts(contacts: ReadonlyMap<string, number>, tx?: Db): Promise<void> {
      if (contacts.size > 0) await repo.markContacts(tx ?? db, contacts);
    },

    /** Firmware the devices report running (diagnostics `fw`); returns those that changed. */
    reportFirmware(reports: ReadonlyMap<string, string>, tx?: Db) {
      return reports.size > 0 ? repo.reportFirmware(tx ?? db, reports) : Promise.resolve([]);
    },

    /** Intervals the devices report running (diagnostics base_interval / transmit_interval) into their applied config; returns those that changed. */
    reportIntervals(reports: ReadonlyMap<string, Record<string, number>>, tx?: Db) {
      return reports.size > 0 ? repo.reportIntervals(tx ?? db, reports) : Promise.resolve([]);
    },

    /** True when `password` is the device's setup password (constant time; false for an unknown device). */
    async checkSetupPassword(deviceId: string, password: string): Promise<boolean> {
      const row = isDeviceRouteId(deviceId) ? await repo.findDevice(db, deviceId) : null;
      const match = sameDigest(sha256(password), sha256(row?.setup_password ?? randomToken()));
      return row !== null && match;
    },

    setAppliedConfig(id: string, config: Record<string, unknown>): Promise<void> {
      return repo.setAppliedConfig(db, id, config);
    },
  };
}
