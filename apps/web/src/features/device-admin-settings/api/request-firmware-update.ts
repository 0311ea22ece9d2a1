import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CommandView, FirmwarePostBody } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** POST /api/device/{id}/firmware {firmwareName} (ADMIN): queues 'Admin.Firmware' for the device. */
export function requestFirmwareUpdate(deviceid: string, body: FirmwarePostBody): Promise<CommandView> {
  return api.post<CommandView>(`/device/${encodeURIComponent(deviceid)}/firmware`, body, { area: 'device' });
}

export function useRequestFirmwareUpdate(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (firmwareName: string) => requestFirmwareUpdate(deviceid, { firmwareName }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.device.rpc(deviceid) }),
  });
}
