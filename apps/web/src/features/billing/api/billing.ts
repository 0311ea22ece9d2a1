/**
 * The billing calls (spec 2 section 7, DESIGN.md section 5): the customer's devices,
 * subscriptions and invoices (fresh for 30 s: API-58), subscription changes, the billing portal
 * address and an invoice's PDF.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  STALE_TIMES_MS,
  type BillingCustomerResponse,
  type BillingPortalResponse,
  type UpdateSubscriptionBody,
  type UpdateSubscriptionResponse,
} from '@portal/core';
import { api, apiBlob } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export function billingCustomerQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.billingCustomer,
    queryFn: ({ signal }) => api.get<BillingCustomerResponse>('/billing-get-customer', { area: 'billing', signal }),
    staleTime: STALE_TIMES_MS.billingCustomer,
  });
}

/** GET /api/billing-get-customer; the pages show a failure themselves. */
export function useBillingCustomer() {
  return useQuery({ ...billingCustomerQueryOptions(), meta: { silent: true } });
}

/** POST /api/billing-update-subscription; the customer and each device's settings (its plan badge) are read again. */
export function useUpdateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSubscriptionBody) =>
      api.post<UpdateSubscriptionResponse>('/billing-update-subscription', body, { area: 'billing' }),
    onSettled: async (_answer, _error, body) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.billingCustomer }),
        ...body.deviceList.map((id) => queryClient.invalidateQueries({ queryKey: queryKeys.device.settings(id) })),
      ]);
    },
  });
}

/** POST /api/billing-create-stripe-portal: where the customer manages billing. */
export function useBillingPortal() {
  return useMutation({
    mutationFn: () => api.post<BillingPortalResponse>('/billing-create-stripe-portal', undefined, { area: 'billing' }),
  });
}

/** GET /api/billing-invoice/{invoiceid}: the invoice's PDF. */
export function getInvoicePdf(invoiceid: number): Promise<Blob> {
  return apiBlob('GET', `/billing-invoice/${invoiceid}`, { area: 'billing' });
}
