/** The second half of home's prefetch: the chosen view's group data, over the view's own range. */
import type { QueryClient } from '@tanstack/react-query';
import { viewsOrDefault, type View } from '@portal/core';
import { viewDataQueryOptions, viewFor } from '@/features/groups/hooks/use-view-data';

export function prefetchViewData(
  queryClient: QueryClient,
  groupid: string,
  views: readonly View[],
  viewid: string | undefined,
): Promise<void> {
  const view = viewFor(viewsOrDefault(views), viewid);
  if (!view) return Promise.resolve();
  // A member's range for this tab only (view-range-session) is home's to add.
  return queryClient.prefetchQuery({ ...viewDataQueryOptions(groupid, view, view.timeRange), meta: { silent: true } });
}
