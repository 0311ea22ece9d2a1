import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TRIGGER_COMMAND, type CommandView, type DistributorActionBody, type MessageResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** POST /api/device/{id}/rpc {method: 'Admin.Trigger', args: {index}}: queues a trigger (the command queue is read again). */
export function useQueueTrigger(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (index: number) =>
      api.post<CommandView>(
        `/device/${encodeURIComponent(deviceid)}/rpc`,
        { method: TRIGGER_COMMAND, args: { index } },
        { area: 'device' },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.device.rpc(deviceid) }),
  });
}

/** POST /api/billing-distributor-action/{id}: reset-trial, or no-pass with ADMIN or DISABLE. */
export function useDistributorAction(deviceid: string) {
  return useMutation({
    mutationFn: (body: DistributorActionBody) =>
      api.post<MessageResponse>(`/billing-distributor-action/${encodeURIComponent(deviceid)}`, body, {
        area: 'billing',
      }),
  });
}

/** PUT /api/device/{id}/custom-settings {values}: queues script custom settings; refreshes the config after. */
export function useQueueCustomSettings(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: Record<string, string | number>) =>
      api.put<MessageResponse>(
        `/device/${encodeURIComponent(deviceid)}/custom-settings`,
        { values },
        { area: 'device' },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.device.config(deviceid) }),
  });
}
