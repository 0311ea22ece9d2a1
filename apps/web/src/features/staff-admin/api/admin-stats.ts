import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BillingAdminStatsResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { BillingAdminStatsResponse };

/** GET /api/billing-admin-stats: the figures of /sqstats. */
export function getAdminStats(): Promise<BillingAdminStatsResponse> {
  return api.get<BillingAdminStatsResponse>('/billing-admin-stats', { area: 'billing' });
}

export const adminStatsQueryOptions = () => queryOptions({ queryKey: queryKeys.staff.stats(), queryFn: getAdminStats });

export function useAdminStats() {
  return useQuery(adminStatsQueryOptions());
}
