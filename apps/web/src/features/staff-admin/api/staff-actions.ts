import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  DistributorActionBody,
  InvoicePaidResponse,
  MessageResponse,
  UpdatePlanBody,
  UpdatePlanResponse,
} from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** Every staff figure may have changed: the staff queries are read again. */
function useStaffMutation<TBody, TAnswer>(mutationFn: (body: TBody) => Promise<TAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.staff.all }),
  });
}

/** POST /api/billing-update-plan {deviceid, plan, reason?} (staff admins). */
export function useUpdatePlan() {
  return useStaffMutation((body: UpdatePlanBody) =>
    api.post<UpdatePlanResponse>('/billing-update-plan', body, { area: 'billing' }),
  );
}

/** POST /api/billing-invoice-paid/{invoiceid} (staff admins). */
export function useMarkInvoicePaid() {
  return useStaffMutation((invoiceid: number) =>
    api.post<InvoicePaidResponse>(`/billing-invoice-paid/${invoiceid}`, undefined, { area: 'billing' }),
  );
}

/** POST /api/billing-distributor-action/{id}: reset-trial, or no-pass with ADMIN or DISABLE. */
export function useStaffDistributorAction() {
  return useStaffMutation(({ deviceid, body }: { deviceid: string; body: DistributorActionBody }) =>
    api.post<MessageResponse>(`/billing-distributor-action/${encodeURIComponent(deviceid)}`, body, {
      area: 'billing',
    }),
  );
}
