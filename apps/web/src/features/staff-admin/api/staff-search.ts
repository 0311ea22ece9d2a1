import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { STAFF_LIMITS, type StaffSearchResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { StaffSearchResponse };

/** GET /api/staff/search?q=: any device by id prefix or name, any user by address. */
export function staffSearch(q: string, signal?: AbortSignal): Promise<StaffSearchResponse> {
  return api.get<StaffSearchResponse>(`/staff/search?q=${encodeURIComponent(q)}`, {
    area: 'user',
    ...(signal ? { signal } : {}),
  });
}

export const staffSearchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: queryKeys.staff.search(q),
    queryFn: ({ signal }) => staffSearch(q, signal),
    enabled: q.trim().length >= STAFF_LIMITS.searchMin,
    placeholderData: keepPreviousData,
  });

export function useStaffSearch(q: string) {
  return useQuery(staffSearchQueryOptions(q.trim()));
}
