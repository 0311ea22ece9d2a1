/**
 * The view calls of spec 1 section 7: GET /group/{groupid}/views (stale after 5 minutes, a failure
 * retried once: VIEW-39), PUT /group/{groupid}/view {view} and DELETE /group/{groupid}/view
 * {viewid}. A save or delete puts the answer into the cached list, so the tabs change at once.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  STALE_TIMES_MS,
  VIEWS_RETRY,
  viewsOrDefault,
  type View,
  type ViewDeleteResponse,
  type ViewInput,
  type ViewListResponse,
  type ViewSaveResponse,
} from '@portal/core';
import { ApiError, api } from '@/lib/api';

const base = (groupid: string) => `/group/${encodeURIComponent(groupid)}`;

/** GET /api/group/{groupid}/views: the group's views by sortOrder (the default view when it has none). */
export function getViews(groupid: string): Promise<ViewListResponse> {
  return api.get<ViewListResponse>(`${base(groupid)}/views`, { area: 'group' });
}

/** PUT /api/group/{groupid}/view {view}: creates (no viewid) or saves a view; 409 when `version` is stale. */
export function putView(groupid: string, view: ViewInput): Promise<ViewSaveResponse> {
  return api.put<ViewSaveResponse>(`${base(groupid)}/view`, { view }, { area: 'group' });
}

/** DELETE /api/group/{groupid}/view {viewid}. */
export function deleteView(groupid: string, viewid: string): Promise<ViewDeleteResponse> {
  return api.delete<ViewDeleteResponse>(`${base(groupid)}/view`, { viewid }, { area: 'group' });
}

/** A failure other than a client error is asked again once (VIEW-39); 4xx will not change. */
function retryViews(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < VIEWS_RETRY;
}

export function viewsQueryOptions(groupid: string) {
  return queryOptions({
    queryKey: ['group', groupid, 'views'] as const,
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

/** The view as a save sends it: the loaded view with the changes, its version the one loaded. */
export function viewInputOf(view: View): ViewInput {
  const { viewid, name, sortOrder, timeRange, widgets, version } = view;
  // The server checked each widget's settings against its type when they were saved.
  return { viewid, name, sortOrder, timeRange, widgets: widgets as ViewInput['widgets'], version };
}

/** Whether a save failed because the view changed since it was loaded (409). */
export function isStaleViewError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}

/** Saves or creates a view; the answer replaces (or joins) the cached list. */
export function useSaveView(groupid: string) {
  const queryClient = useQueryClient();
  const key = viewsQueryOptions(groupid).queryKey;
  return useMutation({
    mutationFn: (view: ViewInput) => putView(groupid, view),
    onSuccess: (answer, sent) => {
      queryClient.setQueryData<ViewListResponse>(key, (old) => {
        if (!old) return old;
        // Creating the group's first view stores the shown default view too (server decision).
        const stored = old.views.filter((v) => v.viewid !== answer.view.viewid);
        return { ...old, views: [...stored, answer.view] };
      });
      if (sent.viewid === undefined && answer.view.viewid) void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => {
      // Someone else saved or removed the view meanwhile: the list is stale either way.
      if (isStaleViewError(error) || (error instanceof ApiError && error.status === 404))
        void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/** Deletes a view; the list is loaded again (the group may be back to its default view). */
export function useDeleteView(groupid: string) {
  const queryClient = useQueryClient();
  const key = viewsQueryOptions(groupid).queryKey;
  return useMutation({
    mutationFn: (viewid: string) => deleteView(groupid, viewid),
    onSuccess: (_answer, viewid) => {
      queryClient.setQueryData<ViewListResponse>(key, (old) =>
        old ? { ...old, views: old.views.filter((v) => v.viewid !== viewid) } : old,
      );
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
