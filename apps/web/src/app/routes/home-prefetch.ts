/**
 * What home's dashboard needs before it can draw, asked for at once: the view's group data and
 * the widgets' code. The app asks as soon as the session check says who is signed in (the URL
 * names the group), so the data call does not wait for home's own code to load; home asks again
 * for the group it chooses (a repeated ask is answered from the cache).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { View } from '@portal/core';
import { viewDataQueryOptions } from '@/features/groups/hooks/use-view-data';

export function prefetchGroupHome(queryClient: QueryClient, groupid: string, view: View): void {
  // A failure here is the group's to show, on home's screen.
  void queryClient.prefetchQuery({ ...viewDataQueryOptions(groupid, view), meta: { silent: true } });
  void import('@/features/group-table/components/group-table-widget');
  void import('@/features/group-map/components/group-map-widget');
}
