/** DELETE /group/{groupid}/view {viewid} (spec 1 section 7); the list is loaded again afterwards. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ViewDeleteResponse, ViewListResponse } from '@portal/core';
import { api } from '@/lib/api';
import { viewsQueryOptions } from './get-views';

const base = (groupid: string) => `/group/${encodeURIComponent(groupid)}`;

/** DELETE /api/group/{groupid}/view {viewid}. */
export function deleteView(groupid: string, viewid: string): Promise<ViewDeleteResponse> {
  return api.delete<ViewDeleteResponse>(`${base(groupid)}/view`, { viewid }, { area: 'group' });
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
