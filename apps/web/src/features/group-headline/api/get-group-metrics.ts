import { queryOptions, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, type GroupMetricsResponse, type MetricsOperator, type MetricsPeriod } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { GroupMetricsResponse };

export interface GroupMetricsParams {
  key: string;
  operator: MetricsOperator;
  current: MetricsPeriod;
  previous: MetricsPeriod;
}

/**
 * GET /api/group/{groupid}/metrics: one key under one operator over the group's devices, for the
 * current and the previous period (both sent, CHT-06).
 */
export function getGroupMetrics(groupid: string, params: GroupMetricsParams): Promise<GroupMetricsResponse> {
  const query = new URLSearchParams({
    key: params.key,
    operator: params.operator,
    currentStartTime: String(params.current.startTime),
    currentEndTime: String(params.current.endTime),
    previousStartTime: String(params.previous.startTime),
    previousEndTime: String(params.previous.endTime),
  });
  return api.get<GroupMetricsResponse>(`/group/${encodeURIComponent(groupid)}/metrics?${query.toString()}`, {
    area: 'group',
  });
}

/**
 * The query of one headline: fresh for 5 minutes (spec 2 section 7, metrics) and read again every
 * 5 minutes while shown, since the current period holds the hour in progress (core headlinePeriods).
 */
export function groupMetricsQueryOptions(groupid: string, params: GroupMetricsParams) {
  return queryOptions({
    queryKey: queryKeys.group.metrics(groupid, params),
    queryFn: () => getGroupMetrics(groupid, params),
    staleTime: STALE_TIMES_MS.metrics,
    refetchInterval: STALE_TIMES_MS.metrics,
  });
}

export function useGroupMetrics(groupid: string, params: GroupMetricsParams) {
  return useQuery({ ...groupMetricsQueryOptions(groupid, params), enabled: Boolean(groupid && params.key) });
}
