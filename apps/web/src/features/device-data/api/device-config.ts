import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  CUSTOM_SETTING_NAME_PATTERN,
  STALE_TIMES_MS,
  ScriptTriggerSchema,
  type DeviceConfigResponse,
  type ScriptTrigger,
} from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** GET /api/device/{id}/config: the config the device runs, and what is pending. */
export function getDeviceConfig(deviceid: string, signal?: AbortSignal): Promise<DeviceConfigResponse> {
  return api.get<DeviceConfigResponse>(`/device/${encodeURIComponent(deviceid)}/config`, { area: 'device', signal });
}

export function useDeviceConfig(deviceid: string, enabled = true) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.device.config(deviceid),
      queryFn: ({ signal }) => getDeviceConfig(deviceid, signal),
      staleTime: STALE_TIMES_MS.config,
      enabled,
      meta: { notFoundShown: true },
    }),
  );
}

export type TriggerParameter = ScriptTrigger;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The device's settings section (config.settings), or an empty one. */
export function configSettings(config: DeviceConfigResponse | undefined): Record<string, unknown> {
  const settings = config?.config.settings;
  return isRecord(settings) ? settings : {};
}

/** The script's trigger parameters (config.settings.script.triggers) that the config contract accepts, in index order. */
export function triggerParameters(config: DeviceConfigResponse | undefined): TriggerParameter[] {
  const script = configSettings(config).script;
  const triggers = isRecord(script) && Array.isArray(script.triggers) ? script.triggers : [];
  return triggers
    .flatMap((t) => {
      const parsed = ScriptTriggerSchema.safeParse(t);
      return parsed.success ? [parsed.data] : [];
    })
    .sort((a, b) => a.index - b.index);
}

/**
 * The device's model and firmware (config.settings.device.model and .fw: the server keeps fw as the
 * device reports it); null where the config has none.
 */
export function deviceIdentity(config: DeviceConfigResponse | undefined): {
  model: string | null;
  firmware: string | null;
} {
  const device = configSettings(config).device;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  return isRecord(device) ? { model: text(device.model), firmware: text(device.fw) } : { model: null, firmware: null };
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
    for (const key of Object.keys(source)) if (CUSTOM_SETTING_NAME_PATTERN.test(key)) keys.add(key);
  return [...keys].sort().map((key) => ({
    key,
    value: isRecord(applied) ? applied[key] : undefined,
    pending: pending[key],
  }));
}
