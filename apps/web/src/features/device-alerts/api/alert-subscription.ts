import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertSubscription, AlertSubscriptionBody, AlertSubscriptionSaved } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** GET /api/device/{id}/alerts: the caller's own alert subscription for the device. */
export function getAlertSubscription(deviceid: string, signal?: AbortSignal): Promise<AlertSubscription> {
  return api.get<AlertSubscription>(`/device/${encodeURIComponent(deviceid)}/alerts`, { area: 'device', signal });
}

/** The caller's subscription, read when the dialog opens; the dialog shows a failure itself. */
export function useAlertSubscription(deviceid: string) {
  return useQuery({
    queryKey: queryKeys.device.alerts(deviceid),
    queryFn: ({ signal }) => getAlertSubscription(deviceid, signal),
    staleTime: 0,
    meta: { silent: true },
  });
}

/** PUT /api/device/{id}/alerts: the whole subscription; the answer (and its message) replaces the cached one. */
export function useSaveAlertSubscription(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertSubscriptionBody) =>
      api.put<AlertSubscriptionSaved>(`/device/${encodeURIComponent(deviceid)}/alerts`, body, { area: 'device' }),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.device.alerts(deviceid), saved),
  });
}

/** POST /api/alerts/unsubscribe/{token}: the link of an alert e-mail (no sign-in needed). */
export function unsubscribe(token: string): Promise<{ message: string }> {
  return api.post<{ message: string }>(`/alerts/unsubscribe/${encodeURIComponent(token)}`, undefined, {
    area: 'user',
  });
}
