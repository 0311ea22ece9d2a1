/** The keys of one group's answers, all under ['group', id]. Part of the key factory (lib/query-keys). */
import type { MetricsOperator, MetricsPeriod } from '@portal/core';

export const group = {
  all: (groupid: string) => ['group', groupid] as const,
  views: (groupid: string) => ['group', groupid, 'views'] as const,
  data: (
    groupid: string,
    params: { from?: number; to?: number; keys?: readonly string[]; stats?: readonly string[] },
  ) =>
    [
      'group',
      groupid,
      'data',
      params.from ?? null,
      params.to ?? null,
      [...(params.keys ?? [])].sort(),
      [...(params.stats ?? [])].sort(),
    ] as const,
  metrics: (
    groupid: string,
    params: { key: string; operator: MetricsOperator; current: MetricsPeriod; previous: MetricsPeriod },
  ) =>
    [
      'group',
      groupid,
      'metrics',
      params.key,
      params.operator,
      params.current.startTime,
      params.current.endTime,
      params.previous.startTime,
      params.previous.endTime,
    ] as const,
  permissions: (groupid: string) => ['group', groupid, 'permissions'] as const,
  serverLog: (groupid: string) => ['group', groupid, 'serverlog'] as const,
};
