import { queryOptions, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS } from '@portal/core';
import { api } from '@/lib/api';

/** A group the user belongs to, as GET /api/groups lists it. (No core contract for it yet.) */
export interface GroupSummary {
  groupid: string;
  groupName: string;
}

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
