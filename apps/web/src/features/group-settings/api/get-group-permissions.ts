import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GroupPermissionsResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** Members are read fresh each time the tab opens: sharing changes them from elsewhere. */
const PERMISSIONS_STALE_MS = 30_000;

/** GET /api/group/{groupid}/permissions: the members and pending invitations. */
export function getGroupPermissions(groupid: string): Promise<GroupPermissionsResponse> {
  return api.get<GroupPermissionsResponse>(`/group/${encodeURIComponent(groupid)}/permissions`, { area: 'group' });
}

export function groupPermissionsQueryOptions(groupid: string) {
  return queryOptions({
    queryKey: queryKeys.group.permissions(groupid),
    queryFn: () => getGroupPermissions(groupid),
    staleTime: PERMISSIONS_STALE_MS,
    // The tab shows the failure in place (GRP-13).
    meta: { silent: true },
  });
}

export function useGroupPermissions(groupid: string) {
  return useQuery(groupPermissionsQueryOptions(groupid));
}
