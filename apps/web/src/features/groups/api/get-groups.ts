import { queryOptions, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, type GroupSummary } from '@portal/core';
import { api } from '@/lib/api';

export type { GroupSummary };

/** GET /api/groups: the user's groups. */
export function getGroups(): Promise<GroupSummary[]> {
  return api.get<GroupSummary[]>('/groups', { area: 'group' });
}

export function groupsQueryOptions() {
  return queryOptions({ queryKey: ['groups'], queryFn: getGroups, staleTime: STALE_TIMES_MS.groupsOfUser });
}

export function useGroups(enabled = true) {
  return useQuery({ ...groupsQueryOptions(), enabled });
}
