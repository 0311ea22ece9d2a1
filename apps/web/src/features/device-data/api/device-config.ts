import { queryOptions, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, type DeviceConfigResponse } from '@portal/core';
import { api } from '@/lib/api';

export const deviceConfigKey = (deviceid: string) => ['device', deviceid, 'config'] as const;

/** GET /api/device/{id}/config: the config the device runs, and what is pending. */
export function getDeviceConfig(deviceid: string, signal?: AbortSignal): Promise<DeviceConfigResponse> {
  return api.get<DeviceConfigResponse>(`/device/${encodeURIComponent(deviceid)}/config`, { area: 'device', signal });
}

export function useDeviceConfig(deviceid: string, enabled = true) {
  return useQuery(
    queryOptions({
      queryKey: deviceConfigKey(deviceid),
      queryFn: ({ signal }) => getDeviceConfig(deviceid, signal),
      staleTime: STALE_TIMES_MS.config,
      retry: 1,
      enabled,
    }),
  );
}

export interface TriggerParameter {
  index: number;
  name: string;
  colour: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The device's settings section (config.settings), or an empty one. */
export function configSettings(config: DeviceConfigResponse | undefined): Record<string, unknown> {
  const settings = config?.config.settings;
  return isRecord(settings) ? settings : {};
}

/** The script's trigger parameters (config.settings.script.triggers), in index order. */
export function triggerParameters(config: DeviceConfigResponse | undefined): TriggerParameter[] {
  const script = configSettings(config).script;
  const triggers = isRecord(script) && Array.isArray(script.triggers) ? script.triggers : [];
  return triggers
    .filter(
      (t): t is TriggerParameter =>
        isRecord(t) && typeof t.index === 'number' && typeof t.name === 'string' && typeof t.colour === 'string',
    )
    .sort((a, b) => a.index - b.index);
}

/** base_interval and transmit_interval of the device section (null when absent). */
export function deviceIntervals(config: DeviceConfigResponse | undefined): {
  baseInterval: number | null;
  transmitInterval: number | null;
} {
  const device = configSettings(config).device;
  const read = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return isRecord(device)
    ? { baseInterval: read(device.base_interval), transmitInterval: read(device.transmit_interval) }
    : { baseInterval: null, transmitInterval: null };
}

/** The script's custom settings (num* and str* of config.settings.script), applied and pending. */
export function customSettings(config: DeviceConfigResponse | undefined): {
  key: string;
  value: unknown;
  pending: unknown;
}[] {
  const applied = configSettings(config).script;
  const pendingSettings = isRecord(config?.pending) && isRecord(config.pending.settings) ? config.pending.settings : {};
  const pending = isRecord(pendingSettings.script) ? pendingSettings.script : {};
  const keys = new Set<string>();
  for (const source of [isRecord(applied) ? applied : {}, pending])
    for (const key of Object.keys(source)) if (/^(num|str)/.test(key)) keys.add(key);
  return [...keys].sort().map((key) => ({
    key,
    value: isRecord(applied) ? applied[key] : undefined,
    pending: pending[key],
  }));
}
