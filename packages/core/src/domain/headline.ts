/**
 * What a headline tile shows (spec 2 sections 3, 4, 5 and 8; ledger CHT-01 - CHT-06): the group
 * metrics call's value of the current period with the tile's decimals and unit, '---' when there
 * is none, and the trend against the previous period only when the rounded values differ.
 */
import type { HeadlineSettings } from '../contracts/views';
import { hoursCovering, type MetricsOperator, type MetricsPeriod } from '../contracts/metrics';
import { clampHeadlineDecimalPlaces } from './validation';
import { MISSING_VALUE } from './screen-messages';
import { formatNumber, trendOf } from './display-format';
import { measurementOf } from './measurements';
import { exportDateTime, type ExportTable } from './table-export';

/** How a tile names its operator. */
export const HEADLINE_OPERATOR_LABELS: Record<MetricsOperator, string> = {
  avg: 'Average',
  sum: 'Sum',
  max: 'Maximum',
  min: 'Minimum',
  latest: 'Latest',
};

/** A headline's settings as a view carries them: a plain record, read field by field. */
export type HeadlineSettingsRecord = Partial<Record<keyof HeadlineSettings, unknown>>;

/** The settings a tile uses: its own, else the catalogue's unit and decimals for the key, operator avg. */
export interface ResolvedHeadline {
  key: string;
  operator: MetricsOperator;
  /** The key's name in the measurement catalogue (the key itself when unknown). */
  name: string;
  unit: string;
  /** 0-5 */
  dp: number;
  trendColor: string | null;
}

const OPERATORS = Object.keys(HEADLINE_OPERATOR_LABELS) as MetricsOperator[];

/**
 * A saved headline's settings resolved for showing: operator avg unless it names another (CHT-02),
 * dp clamped 0-5 (CHT-03) and, when the tile has none, the catalogue's decimals for the key
 * (clamped too); the unit the tile's, else the catalogue's.
 */
export function resolveHeadline(settings: HeadlineSettingsRecord): ResolvedHeadline {
  const key = typeof settings.key === 'string' ? settings.key : '';
  const m = measurementOf(key);
  const operator = OPERATORS.find((op) => op === settings.operator) ?? 'avg';
  const dp =
    typeof settings.dp === 'number' ? clampHeadlineDecimalPlaces(settings.dp) : clampHeadlineDecimalPlaces(m.dp);
  const unit = typeof settings.unit === 'string' && settings.unit !== '' ? settings.unit : m.units;
  const trendColor = typeof settings.trendColor === 'string' ? settings.trendColor : null;
  return { key, operator, name: m.name, unit, dp, trendColor };
}

/** A tile's title: the key's name and the operator, 'Battery Voltage · Average'. */
export function headlineTitle(headline: Pick<ResolvedHeadline, 'name' | 'operator'>): string {
  return `${headline.name} · ${HEADLINE_OPERATOR_LABELS[headline.operator]}`;
}

/** What the tile shows: the value text ('---' when missing, CHT-04) and the trend, if any (CHT-05). */
export interface HeadlineDisplay {
  value: string;
  missing: boolean;
  trend: { direction: 'up' | 'down'; text: string } | null;
}

/**
 * The tile's value and trend from the current and previous periods' values (null: no value):
 * the value with dp decimals, '---' when missing; 'Increased from {previous}' or 'Decreased from
 * {previous}' (the previous value with the same decimals) only when both are there and differ
 * once rounded to dp.
 */
export function headlineDisplay(current: number | null, previous: number | null, dp: number): HeadlineDisplay {
  const places = clampHeadlineDecimalPlaces(dp);
  if (current === null || !Number.isFinite(current))
    return { value: MISSING_VALUE.headline, missing: true, trend: null };
  const trend = previous === null ? null : trendOf(current, previous, places);
  return {
    value: formatNumber(current, places),
    missing: false,
    trend: trend && { direction: trend.direction, text: trend.tooltip },
  };
}

/**
 * The periods a headline reads (CHT-06): the whole hours that the view's range as resolved for now
 * touches (from and to, epoch seconds: see resolveTimeRange; core hoursCovering), so a range
 * ending now reads the hour in progress as well, as the current period, and the previous period
 * of the same length just before it. The periods (and a query keyed on them) stay the same for the
 * rest of the hour.
 */
export function headlinePeriods(range: { from: number; to: number }): {
  current: MetricsPeriod;
  previous: MetricsPeriod;
} {
  const current = hoursCovering(range);
  const length = current.endTime - current.startTime;
  return { current, previous: { startTime: current.startTime - length, endTime: current.startTime } };
}

/** Why a tile shows '---' where it has no key. */
export const HEADLINE_NO_KEY = 'No key chosen: edit the widget to choose one';
/** Why a tile shows '---' where no device of the group recorded the key in the period. */
export const HEADLINE_NO_DATA = 'No data in this period';

/**
 * Why a tile has no value (shown under its '---'), or null when it has one: no key chosen, or no
 * value of the key in the current period (`count`: how many values the period had).
 */
export function headlineMissingReason(key: string, current: { value: number | null; count: number }): string | null {
  if (key.trim() === '') return HEADLINE_NO_KEY;
  if (current.value === null || !Number.isFinite(current.value)) return HEADLINE_NO_DATA;
  return null;
}

/** The headline export's columns. */
export const HEADLINE_EXPORT_COLUMNS = ['Key', 'Operator', 'Value', 'Previous', 'Unit', 'From', 'To'] as const;

/**
 * A headline tile as exported, one row: its key, operator ('Average'), the current and previous
 * periods' values with the tile's decimals (null when a period has none: the tile's '---'), the
 * unit, and the current period read (From, To in `timeZone`, whole hours as the metrics call
 * reads them).
 */
export function headlineExport(input: {
  headline: Pick<ResolvedHeadline, 'key' | 'operator' | 'dp' | 'unit'>;
  current: number | null;
  previous: number | null;
  period: MetricsPeriod;
  timeZone: string;
}): ExportTable {
  const { headline, period, timeZone } = input;
  const value = (v: number | null) => (v === null || !Number.isFinite(v) ? null : formatNumber(v, headline.dp));
  return {
    columns: [...HEADLINE_EXPORT_COLUMNS],
    rows: [
      [
        headline.key,
        HEADLINE_OPERATOR_LABELS[headline.operator],
        value(input.current),
        value(input.previous),
        headline.unit === '' ? null : headline.unit,
        exportDateTime(period.startTime, timeZone),
        exportDateTime(period.endTime, timeZone),
      ],
    ],
  };
}
