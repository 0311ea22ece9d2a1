import { useMutation } from '@tanstack/react-query';
import { TRIGGER_COMMAND, type DistributorActionBody } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/device/{id}/rpc {method: 'Admin.Trigger', args: {index}}: queues a trigger. */
export function useQueueTrigger(deviceid: string) {
  return useMutation({
    mutationFn: (index: number) =>
      api.post<{ commandID: number; state: string }>(
        `/device/${encodeURIComponent(deviceid)}/rpc`,
        { method: TRIGGER_COMMAND, args: { index } },
        { area: 'device' },
      ),
  });
}

/** POST /api/billing-distributor-action/{id}: reset-trial, or no-pass with ADMIN or DISABLE. */
export function useDistributorAction(deviceid: string) {
  return useMutation({
    mutationFn: (body: DistributorActionBody) =>
      api.post<{ message: string }>(`/billing-distributor-action/${encodeURIComponent(deviceid)}`, body, {
        area: 'billing',
      }),
  });
}
