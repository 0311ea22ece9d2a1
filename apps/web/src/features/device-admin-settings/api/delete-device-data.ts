import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteDataResult } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** POST /api/device/{id}/delete-data {setupPassword} (ADMIN): deletes the device's data, answers the counts. */
export function deleteDeviceData(deviceid: string, setupPassword: string): Promise<DeleteDataResult> {
  return api.post<DeleteDataResult>(
    `/device/${encodeURIComponent(deviceid)}/delete-data`,
    { setupPassword },
    { area: 'user' },
  );
}

export function useDeleteDeviceData(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (setupPassword: string) => deleteDeviceData(deviceid, setupPassword),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.device.all(deviceid) }),
  });
}
