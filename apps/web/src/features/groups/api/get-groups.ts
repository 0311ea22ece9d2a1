import { queryOptions, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, type GroupListEntry, type GroupSummary } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { GroupListEntry, GroupSummary };

/** GET /api/groups: the user's groups, each with its level and device count. */
export function getGroups(): Promise<GroupListEntry[]> {
  return api.get<GroupListEntry[]>('/groups', { area: 'group' });
}

export function groupsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.groups.all, queryFn: getGroups, staleTime: STALE_TIMES_MS.groupsOfUser });
}

export function useGroups(enabled = true) {
  return useQuery({ ...groupsQueryOptions(), enabled });
}
