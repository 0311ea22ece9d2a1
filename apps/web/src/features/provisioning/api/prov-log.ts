import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ProvLogEntry } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export interface ProvLog {
  deviceid: string;
  entries: ProvLogEntry[];
}

const id = (deviceid: string) => encodeURIComponent(deviceid);

/** GET /api/prov-portal-get-device-log/{id} (API-53). */
export function getProvLog(deviceid: string): Promise<ProvLog> {
  return api.get<ProvLog>(`/prov-portal-get-device-log/${id(deviceid)}`, { area: 'provisioning' });
}

/**
 * The provisioning log never goes stale (spec 2 section 7, STAFF-08): no background refetch, not
 * on mount, focus or reconnect. It is read again after an action that writes to it, and by Refresh.
 */
export function provLogQueryOptions(deviceid: string) {
  return queryOptions({
    queryKey: queryKeys.prov.log(deviceid),
    queryFn: () => getProvLog(deviceid),
    staleTime: Infinity,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export function useProvLog(deviceid: string) {
  return useQuery({ ...provLogQueryOptions(deviceid), meta: { silent: true } });
}

/** Reads the log again (after a call that wrote to it). */
export function refreshProvLog(queryClient: QueryClient, deviceid: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.prov.log(deviceid) });
}

/** POST /api/prov-portal-add-device-log/{id} (API-55): answers the whole log, which replaces the cached one. */
export function addProvLog(deviceid: string, message: string): Promise<ProvLog> {
  return api.post<ProvLog>(`/prov-portal-add-device-log/${id(deviceid)}`, { message }, { area: 'provisioning' });
}

export function useAddProvLog(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => addProvLog(deviceid, message),
    onSuccess: (log) => queryClient.setQueryData(queryKeys.prov.log(deviceid), log),
  });
}
