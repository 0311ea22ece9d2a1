/**
 * What a custom page shows of a device: its readings (core mergeSeries: each key's points newest
 * first), display settings, contact status and freshness. The app reads and polls the device's
 * calls (GET settings, config and data, on the Data page's schedule) and hands this over.
 */
import type { ContactStatus, DataPoint } from '@portal/core';

export interface LiveDevice {
  deviceid: string;
  name: string;
  /** The device's model (config), when known. */
  model: string | null;
  series: ReadonlyMap<string, readonly DataPoint[]>;
  displaySettings: Record<string, unknown>;
  /** Core contactStatus; null until the config and data have answered. */
  status: ContactStatus | null;
  /** Epoch seconds of the newest record, or null. */
  lastTs: number | null;
  /** The page clock, epoch ms. */
  nowMs: number;
  /** The last refresh failed: what is shown is from the answer before. */
  refreshFailed: boolean;
}

/** Where reading the device stands. */
export type LiveDeviceState =
  | { state: 'loading' }
  | { state: 'notFound' }
  | { state: 'error'; retry: () => void }
  | { state: 'ready'; device: LiveDevice };
