/**
 * The metrics calls (spec 2 sections 3 and 7, DESIGN.md section 5): GET /device/{id}/metrics
 * (every metric kind of each key of one device) and GET /group/{groupid}/metrics (one key and one
 * operator over a group's devices, for the headline tiles). Both answer a current and a previous
 * period of whole hours: each time is floored to 3600 s and a period is the hours from its floored
 * start up to (not including) its floored end, so a previous period ending where the current one
 * starts never shares an hour with it.
 */
import { z } from 'zod';
import { DataPointSchema } from './device-data';
import { REQUEST_EPOCH_S_MAX, queryText, rangeMessage, safeString } from './fields';
import { GROUP_DATA_MAX_DAYS } from './group-data';
import { COLUMN_OPERATORS } from '../domain/widget-kinds';

/** Range times are floored to this many seconds (spec 2 section 7). */
export const METRICS_PERIOD_SECONDS = 3600;
const DAY_SECONDS = 86_400;
/** Longest period the group metrics call may cover: the group data call's limit. */
export const METRICS_MAX_DAYS = GROUP_DATA_MAX_DAYS;
/** Most keys one device metrics call may name. */
export const METRICS_MAX_KEYS = 50;

/** The metric kinds of a device metric (spec 2 section 3). */
export const METRIC_KINDS = ['min', 'max', 'avg', 'sum', 'diff', 'acc'] as const;
export type MetricKind = (typeof METRIC_KINDS)[number];

/** The operators of the group metrics call (spec 2 sections 3 and 9: the headline's and the table's). */
export type MetricsOperator = (typeof COLUMN_OPERATORS)[number];
/** A headline's operator unless it names one (spec 2 section 3). */
const DEFAULT_OPERATOR: MetricsOperator = 'avg';

/** A period of whole hours, epoch seconds: [startTime, endTime). */
export interface MetricsPeriod {
  startTime: number;
  endTime: number;
}

/** Floors an epoch time to its hour (t − t mod 3600), as the metrics calls read every range time. */
export function floorToHour(t: number): number {
  return Math.floor(t / METRICS_PERIOD_SECONDS) * METRICS_PERIOD_SECONDS;
}

/** Rounds an epoch time up to a whole hour (a time on the hour stays). */
export function ceilToHour(t: number): number {
  return Math.ceil(t / METRICS_PERIOD_SECONDS) * METRICS_PERIOD_SECONDS;
}

/**
 * The whole hours a range of times [from, to) touches: from floored to its hour, to rounded up to
 * the next whole hour (docs/decisions.md 'The hour in progress'). A range ending now therefore
 * reads the hour in progress too (the rollups hold what has arrived of it), and a range inside one
 * hour reads that hour instead of nothing.
 */
export function hoursCovering(range: { from: number; to: number }): MetricsPeriod {
  const startTime = floorToHour(range.from);
  return { startTime, endTime: Math.max(startTime, ceilToHour(range.to)) };
}

/**
 * The periods a metrics call reads: the current one from currentStartTime/currentEndTime, the
 * previous one from previousStartTime/previousEndTime, or when those are not given the same
 * number of hours just before the current period; every time floored to the hour.
 */
export function metricsPeriods(q: {
  currentStartTime: number;
  currentEndTime: number;
  previousStartTime?: number | undefined;
  previousEndTime?: number | undefined;
}): { current: MetricsPeriod; previous: MetricsPeriod } {
  const current = { startTime: floorToHour(q.currentStartTime), endTime: floorToHour(q.currentEndTime) };
  const previous =
    q.previousStartTime !== undefined && q.previousEndTime !== undefined
      ? { startTime: floorToHour(q.previousStartTime), endTime: floorToHour(q.previousEndTime) }
      : { startTime: 2 * current.startTime - current.endTime, endTime: current.startTime };
  return { current, previous };
}

/** The most intermediate periods a metrics answer holds (CHT-08). */
export const METRICS_MAX_INTERMEDIATE = 400;

/**
 * The current period's intermediate periods (CHT-08, docs/decisions.md 'Metrics calls'): its
 * whole UTC days when it is longer than a day (whole multiples of days when there would be more
 * than METRICS_MAX_INTERMEDIATE), else its hours; each aligned to its width from the epoch and
 * clipped to the period, in time order. `width` is the slots' width in seconds.
 */
export function intermediatePeriods(p: MetricsPeriod): { width: number; periods: MetricsPeriod[] } {
  const span = p.endTime - p.startTime;
  if (span <= 0) return { width: METRICS_PERIOD_SECONDS, periods: [] };
  const width =
    span <= DAY_SECONDS
      ? METRICS_PERIOD_SECONDS
      : Math.max(1, Math.ceil(span / DAY_SECONDS / METRICS_MAX_INTERMEDIATE)) * DAY_SECONDS;
  const periods: MetricsPeriod[] = [];
  // At most METRICS_MAX_INTERMEDIATE + 1 slots (one more where the period starts mid-slot); the
  // count bounds the loop as well, whatever the period's numbers.
  for (let start = p.startTime; start < p.endTime && periods.length <= METRICS_MAX_INTERMEDIATE;) {
    const end = Math.min(p.endTime, (Math.floor(start / width) + 1) * width);
    periods.push({ startTime: start, endTime: end });
    start = end;
  }
  return { width, periods };
}

const TIME = { kind: 'epoch seconds' };
/** Epoch seconds in a query string: a finite number from 0 to 2100-01-01 (REQUEST_EPOCH_S_MAX). */
const epochSeconds = (name: string) =>
  z
    .number({
      error: (issue) =>
        issue.input === undefined ? `${name} is required` : rangeMessage(name, 0, REQUEST_EPOCH_S_MAX, TIME),
    })
    .min(0, rangeMessage(name, 0, REQUEST_EPOCH_S_MAX, TIME))
    .max(REQUEST_EPOCH_S_MAX, rangeMessage(name, 0, REQUEST_EPOCH_S_MAX, TIME));
const requiredTime = (name: string) => z.preprocess(queryText, epochSeconds(name));
const optionalTime = (name: string) => z.preprocess(queryText, epochSeconds(name).optional());

const periodTimes = {
  currentStartTime: requiredTime('currentStartTime'),
  currentEndTime: requiredTime('currentEndTime'),
  previousStartTime: optionalTime('previousStartTime'),
  previousEndTime: optionalTime('previousEndTime'),
};

type PeriodTimes = {
  currentStartTime: number;
  currentEndTime: number;
  previousStartTime?: number | undefined;
  previousEndTime?: number | undefined;
};

const PREVIOUS_PAIR = 'previousStartTime and previousEndTime go together';

/** The period rules of the group call: start not after end, both previous times or none, at most METRICS_MAX_DAYS each. */
function checkPeriods(q: PeriodTimes, ctx: z.RefinementCtx): void {
  const tooLong = `A period covers at most ${METRICS_MAX_DAYS} days`;
  if (q.currentStartTime > q.currentEndTime)
    ctx.addIssue({
      code: 'custom',
      path: ['currentStartTime'],
      message: 'currentStartTime must not be after currentEndTime',
    });
  else if (q.currentEndTime - q.currentStartTime > METRICS_MAX_DAYS * 86_400)
    ctx.addIssue({ code: 'custom', path: ['currentEndTime'], message: tooLong });
  if ((q.previousStartTime === undefined) !== (q.previousEndTime === undefined))
    ctx.addIssue({ code: 'custom', path: ['previousStartTime'], message: PREVIOUS_PAIR });
  else if (q.previousStartTime !== undefined && q.previousEndTime !== undefined) {
    if (q.previousStartTime > q.previousEndTime)
      ctx.addIssue({
        code: 'custom',
        path: ['previousStartTime'],
        message: 'previousStartTime must not be after previousEndTime',
      });
    else if (q.previousEndTime - q.previousStartTime > METRICS_MAX_DAYS * 86_400)
      ctx.addIssue({ code: 'custom', path: ['previousEndTime'], message: tooLong });
  }
}

const includeLatestData = z
  .enum(['true', 'false', '1', '0'], { message: 'includeLatestData must be true or false' })
  .transform((v) => v === 'true' || v === '1')
  .optional();

// ---- GET /device/{id}/metrics ------------------------------------------------------------------

/**
 * GET /device/{id}/metrics: the current period (required), the previous one (both times, or
 * neither for the hours just before the current period), `dataKeys` a comma list of keys
 * (default every key), and includeLatestData. Times are epoch seconds from 0 to 2100-01-01, like
 * every time a request carries (DESIGN.md section 5): an open range such as 0 to 4102444800 reads
 * everything (one device's rollups are small, and the intermediate periods are at most
 * METRICS_MAX_INTERMEDIATE), a start after its end is an empty period.
 */
export const MetricsQuerySchema = z
  .object({
    ...periodTimes,
    dataKeys: safeString()
      .max(2000)
      .optional()
      .transform((v) => (v === undefined || v === '' ? undefined : [...new Set(v.split(',').map((k) => k.trim()))]))
      .pipe(
        z
          .array(safeString().min(1, 'dataKeys: an empty key').max(64, 'dataKeys: a key of at most 64 characters'))
          .max(METRICS_MAX_KEYS, `dataKeys: at most ${METRICS_MAX_KEYS} keys`)
          .optional(),
      ),
    includeLatestData,
  })
  .refine((q) => (q.previousStartTime === undefined) === (q.previousEndTime === undefined), {
    message: PREVIOUS_PAIR,
    path: ['previousStartTime'],
  });
export type MetricsQuery = z.infer<typeof MetricsQuerySchema>;

/** Min, max, avg, sum, diff and acc of one key over a period, and how many values it had. */
export const MetricSchema = z.object({
  min: z.number(),
  max: z.number(),
  avg: z.number(),
  sum: z.number(),
  diff: z.number(),
  acc: z.number(),
  count: z.number(),
});
export type Metric = z.infer<typeof MetricSchema>;
export const MetricSetSchema = z.record(z.string(), MetricSchema);
export type MetricSet = z.infer<typeof MetricSetSchema>;

const PeriodSchema = z.object({ startTime: z.number(), endTime: z.number() });

/**
 * GET /device/{id}/metrics: each period's whole hours and its metrics per key (keys with no
 * numeric value in the period are absent), and the current period's intermediate periods. With includeLatestData: latestData, the newest value
 * of each key that is not older than the current period's start, and lastKnownData, the newest
 * value of every key however old (spec 2 section 4's stale value).
 */
export const MetricsResponseSchema = z.object({
  deviceid: z.string(),
  currentPeriod: PeriodSchema.extend({ data: MetricSetSchema }),
  previousPeriod: PeriodSchema.extend({ data: MetricSetSchema }),
  /** The current period in slices (intermediatePeriods), each with the metrics of its hours. */
  currentIntermediatePeriods: z.array(z.object({ endTime: z.number(), data: MetricSetSchema })),
  latestData: z.record(z.string(), DataPointSchema).optional(),
  lastKnownData: z.record(z.string(), DataPointSchema).optional(),
});
export type MetricsResponse = z.infer<typeof MetricsResponseSchema>;

// ---- GET /group/{groupid}/metrics ----------------------------------------------------------------

/**
 * GET /group/{groupid}/metrics: one `key`, an `operator` (avg, sum, max, min or latest; default
 * avg), the current period (required) and the previous one (both times, or neither).
 */
export const GroupMetricsQuerySchema = z
  .strictObject({
    key: z
      .preprocess((v) => (v === '' ? undefined : v), safeString().optional())
      .pipe(safeString({ message: 'key is required' }).max(64, 'key: at most 64 characters')),
    operator: z
      .preprocess(
        (v) => (v === '' ? undefined : v),
        z.enum(COLUMN_OPERATORS, { message: `operator must be one of ${COLUMN_OPERATORS.join(', ')}` }).optional(),
      )
      .transform((v) => v ?? DEFAULT_OPERATOR),
    ...periodTimes,
  })
  .superRefine(checkPeriods);
export type GroupMetricsQuery = z.infer<typeof GroupMetricsQuerySchema>;

/**
 * One period of the group metrics answer: `value` is the operator over every value of the key
 * the group's devices recorded in the period (avg weighted by sample count: the sum of all values
 * over their count; latest: the newest value of any device), or null when none did; `devices`
 * how many devices had a value, `count` how many values there were; for latest, `deviceid` and
 * `ts` name where the value came from (null otherwise).
 */
export const GroupMetricsPeriodSchema = PeriodSchema.extend({
  value: z.number().nullable(),
  devices: z.number(),
  count: z.number(),
  deviceid: z.string().nullable(),
  ts: z.number().nullable(),
});
export type GroupMetricsPeriod = z.infer<typeof GroupMetricsPeriodSchema>;

export const GroupMetricsResponseSchema = z.object({
  groupid: z.string(),
  key: z.string(),
  operator: z.enum(COLUMN_OPERATORS),
  currentPeriod: GroupMetricsPeriodSchema,
  previousPeriod: GroupMetricsPeriodSchema,
});
export type GroupMetricsResponse = z.infer<typeof GroupMetricsResponseSchema>;
