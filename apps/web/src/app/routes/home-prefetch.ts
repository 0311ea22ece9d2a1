/**
 * What home's dashboard needs before it can draw, asked for at once: the group's views, then the
 * view's group data, and the widgets' code. The app asks as soon as the session check says who is
 * signed in (the URL names the group), so the calls do not wait for home's own code to load; home
 * asks again for the group it chooses (a repeated ask is answered from the cache). The data
 * call's part (ranges resolved in the viewer's time zone) loads with the views' answer, so the
 * entry chunk every route loads stays small.
 */
import type { QueryClient } from '@tanstack/react-query';
import { viewsQueryOptions } from '@/features/groups/api/get-views';

export function prefetchGroupHome(queryClient: QueryClient, groupid: string, viewid: string | undefined): void {
  void import('@/features/group-table/components/group-table-widget');
  void import('@/features/group-map/components/group-map-widget');
  const data = import('./home-prefetch-data');
  // A failure here is the group's to show, on home's screen.
  void queryClient
    .fetchQuery({ ...viewsQueryOptions(groupid), meta: { silent: true } })
    .then(async (answer) => (await data).prefetchViewData(queryClient, groupid, answer.views, viewid))
    .catch(() => undefined);
}
