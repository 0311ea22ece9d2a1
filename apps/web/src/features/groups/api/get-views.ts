/**
 * GET /group/{groupid}/views (spec 1 section 7): the group's views by sortOrder, the default view
 * when it has none; stale after 5 minutes, a failure retried once (VIEW-39).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, VIEWS_RETRY, viewsOrDefault, type ViewListResponse } from '@portal/core';
import { ApiError, api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** GET /api/group/{groupid}/views: the group's views by sortOrder (the default view when it has none). */
export function getViews(groupid: string): Promise<ViewListResponse> {
  return api.get<ViewListResponse>(`/group/${encodeURIComponent(groupid)}/views`, { area: 'group' });
}

/** A failure other than a client error is asked again once (VIEW-39); 4xx will not change. */
function retryViews(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < VIEWS_RETRY;
}

export function viewsQueryOptions(groupid: string) {
  return queryOptions({
    queryKey: queryKeys.group.views(groupid),
    queryFn: () => getViews(groupid),
    staleTime: STALE_TIMES_MS.views,
    retry: retryViews,
    // The list as the tabs show it: by sortOrder, the default view when empty.
    select: (answer: ViewListResponse) => viewsOrDefault(answer.views),
  });
}

export function useViews(groupid: string | null) {
  return useQuery({ ...viewsQueryOptions(groupid ?? ''), enabled: Boolean(groupid) });
}
