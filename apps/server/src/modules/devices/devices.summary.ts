/** What other modules read of a device, and the name it shows under. */
import { randomInt } from 'node:crypto';
import {
  SETUP_PASSWORD_ALPHABET,
  SETUP_PASSWORD_LENGTH,
  isBrandId,
  type DeviceModel,
  type ProvDevice,
} from '@portal/core';
import type { DeviceRow } from './devices.repository';

/** What other modules (ingest, device calls) read of a device. */
export interface DeviceSummary {
  id: string;
  model: string;
  family: string;
  fw: string;
  tier: string;
  name: string;
  added_ts: number | null;
  trial_reset_ts: number | null;
  last_contact: number | null;
  config: Record<string, unknown>;
  pending_config: Record<string, unknown> | null;
}

export const asRecord = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** config.settings.device.name, or '' when missing. */
function configName(config: Record<string, unknown>): string {
  const name = asRecord(asRecord(asRecord(config).settings).device).name;
  return typeof name === 'string' ? name : '';
}

export function deviceName(row: DeviceRow): string {
  return row.portal_name ?? (configName(row.config) || row.id);
}

export function toSummary(row: DeviceRow): DeviceSummary {
  return {
    id: row.id,
    model: row.model,
    family: row.family,
    fw: row.fw,
    tier: row.tier,
    name: deviceName(row),
    added_ts: row.added_ts,
    trial_reset_ts: row.trial_reset_ts,
    last_contact: row.last_contact,
    config: row.config,
    pending_config: row.pending_config,
  };
}

/** The provisioning record of a device, as the database holds it (the service adds what configuration says). */
export type ProvRecord = Omit<ProvDevice, 'publicUrlConfigured'>;

/** The credentials of a device, returned once when it is made. */
export interface ProvisionedDevice extends ProvRecord {
  setupPassword: string;
  deviceKey: string;
}

/** A random setup password for the label (8 characters, no look-alikes). */
export function newSetupPassword(): string {
  let out = '';
  for (let i = 0; i < SETUP_PASSWORD_LENGTH; i += 1)
    out += SETUP_PASSWORD_ALPHABET[randomInt(SETUP_PASSWORD_ALPHABET.length)];
  return out;
}

export function toProvDevice(row: DeviceRow): ProvRecord {
  return {
    deviceid: row.id,
    model: row.model as DeviceModel,
    family: row.family as ProvDevice['family'],
    fw: row.fw,
    name: deviceName(row),
    tier: row.tier,
    added: row.added_ts !== null,
    createdAt: row.created_at.toISOString(),
    lastContact: row.last_contact,
    brand: isBrandId(row.brand) ? row.brand : 'default',
  };
}
