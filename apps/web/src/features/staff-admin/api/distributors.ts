import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Distributor, DistributorBody, DistributorDevicesBody, DistributorDevicesResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { Distributor, DistributorBody, DistributorDevicesResponse };

/** GET /api/distributors: every distributor, by name, with its device count. */
export function getDistributors(): Promise<Distributor[]> {
  return api.get<Distributor[]>('/distributors', { area: 'billing' });
}

export const distributorsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.staff.distributors(), queryFn: getDistributors });

export function useDistributors() {
  return useQuery(distributorsQueryOptions());
}

/** POST /api/distributors with id 0 creates one; PUT /api/distributors edits an existing id. */
export function saveDistributor(body: DistributorBody): Promise<Distributor> {
  return body.id === 0
    ? api.post<Distributor>('/distributors', body, { area: 'billing' })
    : api.put<Distributor>('/distributors', body, { area: 'billing' });
}

export function useSaveDistributor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDistributor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.staff.all }),
  });
}

/** PUT /api/distributor-devices: the devices go to the distributor (null: to none). */
export function assignDistributorDevices(body: DistributorDevicesBody): Promise<DistributorDevicesResponse> {
  return api.put<DistributorDevicesResponse>('/distributor-devices', body, { area: 'billing' });
}

export function useAssignDistributorDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignDistributorDevices,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.staff.all }),
  });
}
