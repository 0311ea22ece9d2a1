/**
 * The group metrics call (DESIGN.md section 5; core contracts/metrics.ts): GET
 * /group/{groupid}/metrics answers one key under one operator over the group's devices, for a
 * current and a previous period of whole hours, from the rollups kept at ingest (modules/telemetry
 * group-metrics.repository.ts): what a headline tile shows, in one call, not one per device.
 *
 * Operators across devices: avg is weighted by sample count (the sum of every device's sums over
 * the sum of their counts), sum adds every value, max and min are the extremes of every value,
 * latest is the newest value of any device in the period (with that device and time). Any member
 * level reads it; anyone else gets the group calls' 404.
 */
import {
  metricOfStats,
  metricsPeriods,
  type GroupMetricsPeriod,
  type GroupMetricsQuery,
  type GroupMetricsResponse,
  type MetricsOperator,
  type MetricsPeriod,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { User } from '../auth/auth.service';
import type { GroupKeyAggregate, TelemetryService } from '../telemetry/telemetry.service';
import type { AccessService } from '../access/access.service';
import * as repo from './groups.repository';

/** What the group metrics call offers. */
export interface GroupMetricsService {
  /** The key's value under the operator for the current and previous periods; 404 for a non-member. */
  metrics(user: User, groupid: string, query: GroupMetricsQuery): Promise<GroupMetricsResponse>;
}

export interface GroupMetricsDeps {
  db: Db;
  access: Pick<AccessService, 'authorizeGroup'>;
  telemetry: Pick<TelemetryService, 'groupKeyAggregates'>;
}

/** The operator's value of one period's aggregate (core metricOfStats but latest), or null when no device had a value. */
function valueOf(operator: MetricsOperator, a: GroupKeyAggregate): number | null {
  if (operator === 'latest') return a.count === 0 ? null : (a.latest?.value ?? null);
  if (a.sum === null || a.min === null || a.max === null) return null;
  return metricOfStats({ count: a.count, sum: a.sum, min: a.min, max: a.max }, operator);
}

function periodAnswer(operator: MetricsOperator, period: MetricsPeriod, a: GroupKeyAggregate): GroupMetricsPeriod {
  const latest = operator === 'latest' ? a.latest : null;
  return {
    ...period,
    value: valueOf(operator, a),
    devices: a.devices,
    count: a.count,
    deviceid: latest?.deviceid ?? null,
    ts: latest?.ts ?? null,
  };
}

export function createGroupMetricsService(deps: GroupMetricsDeps): GroupMetricsService {
  const { db, telemetry, access } = deps;

  return {
    async metrics(user: User, groupid: string, query: GroupMetricsQuery): Promise<GroupMetricsResponse> {
      await access.authorizeGroup(user.id, groupid, null);
      const { current, previous } = metricsPeriods(query);
      const ids = await repo.groupDeviceIds(db, groupid);
      const [now, before] = await telemetry.groupKeyAggregates(
        ids,
        query.key,
        [current, previous],
        query.operator === 'latest',
      );
      return {
        groupid,
        key: query.key,
        operator: query.operator,
        currentPeriod: periodAnswer(query.operator, current, now!),
        previousPeriod: periodAnswer(query.operator, previous, before!),
      };
    },
  };
}
