import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceConfigSaved } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/**
 * PUT /api/device/{id}/config with {config: {settings}}: queues the changed values (core's
 * configChange, checked by the DeviceConfigPutBody schema's settings); the answer is the config
 * with the change pending and the server's message (the change is queued).
 */
export function putDeviceConfig(deviceid: string, settings: Record<string, unknown>): Promise<DeviceConfigSaved> {
  return api.put<DeviceConfigSaved>(
    `/device/${encodeURIComponent(deviceid)}/config`,
    { config: { settings } },
    { area: 'device' },
  );
}

/** Queues a config change and puts the answer (the change pending) in the config cache. */
export function useUpdateDeviceConfig(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: Record<string, unknown>) => putDeviceConfig(deviceid, settings),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.device.config(deviceid), answer),
  });
}
