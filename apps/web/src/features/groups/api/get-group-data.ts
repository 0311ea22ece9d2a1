import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, type GroupDataResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { GroupDataResponse };

export interface GroupDataParams {
  /** Range, epoch seconds; the server's default (the last 7 days) when missing. */
  from?: number;
  to?: number;
  /** Record keys whose latest values are wanted. */
  keys?: readonly string[];
  /** Record keys whose stats over the range (count, sum, min, max) are wanted. */
  stats?: readonly string[];
}

/** GET /api/group/{groupid}/data: every device of the group with what the table and the map show. */
export function getGroupData(groupid: string, params: GroupDataParams = {}): Promise<GroupDataResponse> {
  const query = new URLSearchParams();
  if (params.from !== undefined) query.set('from', String(params.from));
  if (params.to !== undefined) query.set('to', String(params.to));
  if (params.keys && params.keys.length > 0) query.set('keys', [...params.keys].sort().join(','));
  if (params.stats && params.stats.length > 0) query.set('stats', [...params.stats].sort().join(','));
  const qs = query.toString();
  return api.get<GroupDataResponse>(`/group/${encodeURIComponent(groupid)}/data${qs ? `?${qs}` : ''}`, {
    area: 'group',
  });
}

export function groupDataQueryOptions(groupid: string, params: GroupDataParams = {}) {
  return queryOptions({
    queryKey: queryKeys.group.data(groupid, params),
    queryFn: () => getGroupData(groupid, params),
    staleTime: STALE_TIMES_MS.data,
    placeholderData: keepPreviousData,
  });
}

export function useGroupData(groupid: string | undefined, params: GroupDataParams = {}) {
  return useQuery({ ...groupDataQueryOptions(groupid ?? '', params), enabled: Boolean(groupid) });
}
