/**
 * Rules of the group table widget (spec 1 sections 3 and 5, spec 2 sections 2, 3, 8 and 9; ledger
 * TBL-03 to TBL-23): which columns are special and which are text, the filter operators each
 * column offers and how they match, how rows sort, what a cell shows (units, dp, thresholds),
 * the severity colour of the event counts, the page size and the table operators.
 */
import type { GroupDataDevice, GroupMessage, KeyStats } from '../contracts/group-data';
import type { TableColumn, TableFilter, TableSettings } from '../contracts/views';
import { isCssColour } from './colour';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './constants';
import {
  NUMBER_FILTER_OPERATORS,
  SPECIAL_COLUMN_HEADERS,
  SPECIAL_COLUMN_KINDS,
  TEXT_COLUMN_KINDS,
  TEXT_FILTER_OPERATORS,
  type COLUMN_OPERATORS,
  type NumberFilterOperator,
  type SpecialColumnKind,
  type TextFilterOperator,
} from './widget-kinds';
import { MISSING_VALUE } from './screen-messages';
import { eventColourClass, eventLabel, type SeverityColourClass } from './severity';
import { clampDecimalPlaces } from './validation';
import { exportDateTime, type ExportCell, type ExportTable } from './table-export';

export type FilterOperator = TextFilterOperator | NumberFilterOperator;
export type ColumnOperator = (typeof COLUMN_OPERATORS)[number];

/** The words the filter menu shows for each operator (spec 1 section 5). */
export const FILTER_OPERATOR_LABELS: Record<FilterOperator, string> = {
  startsWith: 'Starts with',
  contains: 'Contains',
  notContains: 'Does not contain',
  endsWith: 'Ends with',
  lt: 'Less than',
  lte: 'Less than or equal to',
  gt: 'Greater than',
  gte: 'Greater than or equal to',
  equals: 'Equals',
  notEquals: 'Not equals',
  between: 'Between',
};

const SPECIAL_KINDS: ReadonlySet<string> = new Set(SPECIAL_COLUMN_KINDS);
const TEXT_KINDS: ReadonlySet<string> = new Set(TEXT_COLUMN_KINDS);

/** True when the key is one of the special column kinds, read from the device rather than a metric (TBL-03). */
export function isSpecialColumn(key: string): key is SpecialColumnKind {
  return SPECIAL_KINDS.has(key);
}

/** True for the text columns fw, type, deviceid, messages, machineMake and machineModel (TBL-06). */
export function isTextColumn(key: string): boolean {
  return TEXT_KINDS.has(key);
}

/** The filter operators a column offers: the four text ones for text columns, the seven others for every other column (TBL-06, TBL-07). */
export function filterOperatorsFor(key: string): readonly FilterOperator[] {
  return isTextColumn(key) ? TEXT_FILTER_OPERATORS : NUMBER_FILTER_OPERATORS;
}

/** The counts columns and the severity class each is coloured with when above 0. */
export const COUNT_COLUMN_CLASSES = {
  alarmCount: 'danger',
  warningCount: 'warning',
  alertCount: 'info',
  infoCount: 'muted',
} as const satisfies Partial<Record<SpecialColumnKind, SeverityColourClass>>;
export type CountColumnKind = keyof typeof COUNT_COLUMN_CLASSES;

/** True for the event count columns (alarmCount, warningCount, alertCount, infoCount). */
export function isCountColumn(key: string): key is CountColumnKind {
  return Object.hasOwn(COUNT_COLUMN_CLASSES, key);
}

/** The severity class of a count cell: its column's class when the count is above 0, else null (plain). */
export function countColourClass(key: CountColumnKind, count: number): SeverityColourClass | null {
  return Number.isFinite(count) && count > 0 ? COUNT_COLUMN_CLASSES[key] : null;
}

/** The column's header: its name (the special kind's header when the name is blank), with the unit when unitInHeader (TBL-04, TBL-21). */
export function columnHeader(column: TableColumn): string {
  const name = column.name.trim() || (isSpecialColumn(column.key) ? SPECIAL_COLUMN_HEADERS[column.key] : column.key);
  const unit = column.unit?.trim();
  return column.unitInHeader && unit ? `${name} (${unit})` : name;
}

/** A finite number from a number or numeric text, else null. */
export function numericCellValue(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  return null;
}

/** The text the messages column filters and sorts on: the messages, newest first, one per line. */
export function messagesText(messages: readonly GroupMessage[]): string {
  return messages.map((m) => m.msg).join('\n');
}

/** The operators a metric column takes over the view's range rather than the latest value (TBL-19). */
export type RangeOperator = Exclude<ColumnOperator, 'latest'>;

/** Whether a column's operator is taken over the range (avg, sum, max, min); none or latest is the latest value. */
export function isRangeOperator(operator: ColumnOperator | undefined): operator is RangeOperator {
  return operator !== undefined && operator !== 'latest';
}

/** A range operator over a key's stats (count, sum, min, max of its values in the range); null without values. */
export function metricOfStats(stats: KeyStats | undefined, operator: RangeOperator): number | null {
  if (stats === undefined || stats.count === 0) return null;
  switch (operator) {
    case 'avg':
      return stats.sum / stats.count;
    case 'sum':
      return stats.sum;
    case 'max':
      return stats.max;
    case 'min':
      return stats.min;
  }
}

/**
 * The keys whose stats the group data call must answer for these columns (`stats`): metric
 * columns with a range operator.
 */
export function statsKeysOf(columns: readonly Pick<TableColumn, 'key' | 'operator'>[]): string[] {
  return columns.filter((c) => !isSpecialColumn(c.key) && isRangeOperator(c.operator)).map((c) => c.key);
}

/**
 * What a metric column shows for a device (TBL-19): with a range operator, that operator over
 * the device's values in the range (its stats), else its latest value; undefined when there is
 * none.
 */
export function metricValue(device: GroupDataDevice, column: Pick<TableColumn, 'key' | 'operator'>): unknown {
  const { key, operator } = column;
  if (isRangeOperator(operator)) {
    const stats = device.stats !== undefined && Object.hasOwn(device.stats, key) ? device.stats[key] : undefined;
    return metricOfStats(stats, operator) ?? undefined;
  }
  return Object.hasOwn(device.values, key) ? device.values[key]?.v : undefined;
}

/**
 * The value a column filters and sorts on: text for text columns, a number (or null when
 * missing) for every other column. ts is epoch seconds; a metric is what its cell shows (metricValue).
 */
export function columnValue(
  device: GroupDataDevice,
  column: Pick<TableColumn, 'key' | 'operator'>,
): string | number | null {
  const key = column.key;
  if (isSpecialColumn(key)) {
    switch (key) {
      case 'messages':
        return messagesText(device.messages);
      case 'ts':
        return device.ts;
      case 'alarmCount':
      case 'warningCount':
      case 'alertCount':
      case 'infoCount':
        return device[key];
      default:
        return device[key];
    }
  }
  const v = metricValue(device, column);
  if (v === undefined) return null;
  const n = numericCellValue(v);
  if (n !== null) return n;
  return typeof v === 'string' ? v : null;
}

/** A filter as the table applies it: the column key, operator and bound(s). */
export type ActiveFilter = Pick<TableFilter, 'key' | 'operator' | 'value' | 'value2'>;

/** True when the filter has what it needs to apply: a bound (two for between). A filter without one keeps every row. */
export function isFilterComplete(filter: ActiveFilter): boolean {
  if (filter.value === null || filter.value === '') return false;
  if (filter.operator === 'between') return filter.value2 !== null && filter.value2 !== undefined;
  return true;
}

/**
 * Whether a cell value passes a filter (TBL-08). Text operators compare case-insensitively
 * (a missing value is empty text); number operators need a number on both sides (a missing
 * value fails every one but notEquals); between keeps values in [low, high], either order.
 */
export function matchesFilter(value: string | number | null, filter: ActiveFilter): boolean {
  if (!isFilterComplete(filter)) return true;
  const op = filter.operator;
  if (op === 'startsWith' || op === 'contains' || op === 'notContains' || op === 'endsWith') {
    const text = value === null ? '' : String(value).toLowerCase();
    const wanted = String(filter.value).toLowerCase();
    if (op === 'startsWith') return text.startsWith(wanted);
    if (op === 'endsWith') return text.endsWith(wanted);
    if (op === 'contains') return text.includes(wanted);
    return !text.includes(wanted);
  }
  const bound = numericCellValue(filter.value);
  const n = typeof value === 'number' ? value : numericCellValue(value);
  if (bound === null) return true;
  if (n === null) return op === 'notEquals';
  switch (op) {
    case 'lt':
      return n < bound;
    case 'lte':
      return n <= bound;
    case 'gt':
      return n > bound;
    case 'gte':
      return n >= bound;
    case 'equals':
      return n === bound;
    case 'notEquals':
      return n !== bound;
    case 'between': {
      const other = numericCellValue(filter.value2);
      if (other === null) return true;
      return n >= Math.min(bound, other) && n <= Math.max(bound, other);
    }
  }
}

/**
 * Compares two cell values for sorting ascending: numbers by value, text case-insensitively;
 * a missing value sorts after every present one (keeping it last when descending is the caller's part).
 */
export function compareCellValues(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The page size of a table: its configured pageSize when one of 10, 25 or 50, else 10 (TBL-11). */
export function tablePageSize(settings: Pick<TableSettings, 'pageSize'>): number {
  const size = settings.pageSize;
  return typeof size === 'number' && (PAGE_SIZE_OPTIONS as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE;
}

/** A metric cell's text: the value with dp decimal places (when set) and the unit unless it is in the header (TBL-21, TBL-22). */
export function formatMetricCell(v: unknown, column: Pick<TableColumn, 'unit' | 'unitInHeader' | 'dp'>): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return String(v);
  const n = numericCellValue(v);
  if (n === null) return typeof v === 'string' ? v : MISSING_VALUE.text;
  let text = column.dp === undefined ? String(n) : n.toFixed(clampDecimalPlaces(column.dp, 0));
  if (/^-0(\.0+)?$/.test(text)) text = text.slice(1);
  const unit = column.unit?.trim();
  return unit && !column.unitInHeader ? `${text} ${unit}` : text;
}

/**
 * The colour a threshold rule gives a value (TBL-23; the spec leaves the rule open, docs/decisions.md
 * 'Group table'): the colour of the highest threshold whose value the cell reaches (value >=
 * threshold), or null below every threshold, for a non-number, or when that colour is not a
 * CSS colour.
 */
export function thresholdColour(
  v: unknown,
  thresholds: readonly { value: number; colour: string }[] | undefined,
): string | null {
  if (!thresholds || thresholds.length === 0) return null;
  const n = numericCellValue(v);
  if (n === null || typeof v === 'boolean') return null;
  let best: { value: number; colour: string } | null = null;
  for (const t of thresholds) {
    if (Number.isFinite(t.value) && n >= t.value && (best === null || t.value >= best.value)) best = t;
  }
  return best !== null && isCssColour(best.colour) ? best.colour : null;
}

/** The newest messages a cell shows, with each one's severity class (newest first, at most `max`). */
export function cellMessages(
  messages: readonly GroupMessage[],
  max: number,
): { message: GroupMessage; colourClass: SeverityColourClass }[] {
  return [...messages]
    .sort((a, b) => b.ts - a.ts)
    .slice(0, Math.max(0, max))
    .map((message) => ({ message, colourClass: eventColourClass(message) }));
}

/**
 * A table or headline operator over a series (TBL-19): avg, sum, max, min, or latest (the value
 * of the newest time). Non-numbers are skipped; null when nothing numeric is left.
 */
export function aggregate(points: readonly { v: unknown; ts: number }[], operator: ColumnOperator): number | null {
  let count = 0;
  let sum = 0;
  let max = -Infinity;
  let min = Infinity;
  let latest: number | null = null;
  let latestTs = -Infinity;
  for (const p of points) {
    const n = typeof p.v === 'boolean' ? null : numericCellValue(p.v);
    if (n === null) continue;
    count += 1;
    sum += n;
    if (n > max) max = n;
    if (n < min) min = n;
    if (p.ts >= latestTs) {
      latestTs = p.ts;
      latest = n;
    }
  }
  if (count === 0) return null;
  return operator === 'latest' ? latest : metricOfStats({ count, sum, min, max }, operator);
}

// ---- Export (issue 13, docs/decisions.md 'Widget export') ----------------------------------------

/**
 * One table cell as exported: what the cell shows, in words a file can hold. Last Contact is the
 * time in `timeZone` ('2026-11-26 09:30:00') rather than an age; Event Messages every message,
 * newest first, '{LEVEL} {msg}' one per line; counts are numbers; a metric is its text with dp
 * and unit as the cell shows it (formatMetricCell); a missing value or blank text is null.
 */
export function tableExportCell(device: GroupDataDevice, column: TableColumn, timeZone: string): ExportCell {
  const key = column.key;
  if (!isSpecialColumn(key)) {
    const v = metricValue(device, column);
    if (v === undefined) return null;
    const text = formatMetricCell(v, column);
    return text === '' ? null : text;
  }
  if (key === 'ts')
    return device.ts === null || !Number.isFinite(device.ts) ? null : exportDateTime(device.ts, timeZone);
  if (key === 'messages') {
    if (device.messages.length === 0) return null;
    return cellMessages(device.messages, device.messages.length)
      .map(({ message }) => `${eventLabel(message)} ${message.msg}`)
      .join('\n');
  }
  if (isCountColumn(key)) return device[key];
  const text = device[key];
  return text === '' ? null : text;
}

/**
 * The group table as exported: the columns' headers (columnHeader: the unit in the header when
 * unitInHeader) and one row per device, in the order given: the caller passes the rows as
 * filtered and sorted, and the columns in the order they are shown.
 */
export function groupTableExport(
  devices: readonly GroupDataDevice[],
  columns: readonly TableColumn[],
  timeZone: string,
): ExportTable {
  return {
    columns: columns.map(columnHeader),
    rows: devices.map((device) => columns.map((column) => tableExportCell(device, column, timeZone))),
  };
}
