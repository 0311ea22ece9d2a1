import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RpcCancelResult } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** DELETE /api/device/{id}/rpc {commandID} (API-41): cancels a queued command; 409 once it has been sent. */
export function cancelCommand(deviceid: string, commandID: number): Promise<RpcCancelResult> {
  return api.delete<RpcCancelResult>(`/device/${encodeURIComponent(deviceid)}/rpc`, { commandID }, { area: 'device' });
}

/** Cancels a command; the queue is read again after, cancelled or not (it may have been sent meanwhile). */
export function useCancelCommand(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commandID: number) => cancelCommand(deviceid, commandID),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.device.rpc(deviceid) }),
  });
}
