/** The keys of one group's answers, all under ['group', id]. Part of the key factory (lib/query-keys). */
import type { MetricsOperator, MetricsPeriod } from '@portal/core';

export const all = (groupid: string) => ['group', groupid] as const;
export const views = (groupid: string) => ['group', groupid, 'views'] as const;
export const data = (
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
  ] as const;
export const metrics = (
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
  ] as const;
export const permissions = (groupid: string) => ['group', groupid, 'permissions'] as const;
export const serverLog = (groupid: string) => ['group', groupid, 'serverlog'] as const;
