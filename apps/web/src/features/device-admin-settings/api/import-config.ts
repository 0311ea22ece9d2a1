import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceConfigDocument, DeviceConfigImportResult } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** POST /api/device/{id}/import {config}: queued as the pending config, like a settings change. */
export function importConfig(deviceid: string, config: DeviceConfigDocument): Promise<DeviceConfigImportResult> {
  return api.post<DeviceConfigImportResult>(
    `/device/${encodeURIComponent(deviceid)}/import`,
    { config },
    { area: 'device' },
  );
}

export function useImportConfig(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: DeviceConfigDocument) => importConfig(deviceid, config),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.device.config(deviceid) }),
  });
}
