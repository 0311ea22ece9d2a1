import { queryOptions, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, type GroupResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { GroupResponse };

/** GET /api/group/{groupid}: the group, its device summaries and the caller's level. */
export function getGroup(groupid: string): Promise<GroupResponse> {
  return api.get<GroupResponse>(`/group/${encodeURIComponent(groupid)}`, { area: 'group' });
}

export function groupQueryOptions(groupid: string) {
  return queryOptions({
    queryKey: queryKeys.group.all(groupid),
    queryFn: () => getGroup(groupid),
    staleTime: STALE_TIMES_MS.groupsOfUser,
  });
}

export function useGroup(groupid: string | undefined) {
  return useQuery({ ...groupQueryOptions(groupid ?? ''), enabled: Boolean(groupid) });
}
