/**
 * PUT /group/{groupid}/view {view} (spec 1 section 7): creates a view (no viewid) or saves one
 * with the version it was loaded at (409 when stale). The answer replaces (or joins) the cached list.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { View, ViewInput, ViewListResponse, ViewSaveResponse } from '@portal/core';
import { ApiError, api } from '@/lib/api';
import { viewsQueryOptions } from './get-views';

const base = (groupid: string) => `/group/${encodeURIComponent(groupid)}`;

/** PUT /api/group/{groupid}/view {view}: creates (no viewid) or saves a view; 409 when `version` is stale. */
export function putView(groupid: string, view: ViewInput): Promise<ViewSaveResponse> {
  return api.put<ViewSaveResponse>(`${base(groupid)}/view`, { view }, { area: 'group' });
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
