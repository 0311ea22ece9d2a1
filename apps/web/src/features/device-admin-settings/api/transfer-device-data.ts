import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TransferDataBody, TransferDataResult } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** POST /api/device/{id}/transfer-data {setupPassword, targetDeviceid} (ADMIN of both): moves the data, answers the counts. */
export function transferDeviceData(deviceid: string, body: TransferDataBody): Promise<TransferDataResult> {
  return api.post<TransferDataResult>(`/device/${encodeURIComponent(deviceid)}/transfer-data`, body, {
    area: 'user',
  });
}

export function useTransferDeviceData(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TransferDataBody) => transferDeviceData(deviceid, body),
    onSuccess: (result) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.device.all(deviceid) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.device.all(result.targetDeviceid) }),
      ]),
  });
}
