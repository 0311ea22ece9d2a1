import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GroupServerLogEntry } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { GroupServerLogEntry };

export interface GroupServerLog {
  groupid: string;
  entries: GroupServerLogEntry[];
}

/** GET /api/group/{groupid}/serverlog (ADMIN): every change and who made it, newest first. */
export function getGroupServerLog(groupid: string): Promise<GroupServerLog> {
  return api.get<GroupServerLog>(`/group/${encodeURIComponent(groupid)}/serverlog`, { area: 'group' });
}

export function groupServerLogQueryOptions(groupid: string) {
  return queryOptions({
    queryKey: queryKeys.group.serverLog(groupid),
    queryFn: () => getGroupServerLog(groupid),
    staleTime: 0,
    meta: { silent: true },
  });
}

export function useGroupServerLog(groupid: string, enabled: boolean) {
  return useQuery({ ...groupServerLogQueryOptions(groupid), enabled });
}
