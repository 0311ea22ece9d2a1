/**
 * The tables the dashboard's widgets export (issue 13, docs/decisions.md 'Widget export'): the
 * group table's rows as the table shows them, and a headline tile's one row. The chart's comes
 * with the chart.
 */
import type { GroupDataDevice } from '../contracts/group-data';
import type { MetricsPeriod } from '../contracts/metrics';
import type { TableColumn } from '../contracts/views';
import { formatNumber } from './display';
import { HEADLINE_OPERATOR_LABELS, type ResolvedHeadline } from './headline';
import { eventLabel } from './severity';
import { cellMessages, columnHeader, formatMetricCell, isCountColumn, isSpecialColumn } from './table';
import { exportDateTime, type ExportCell, type ExportTable } from './table-export';

/**
 * One table cell as exported: what the cell shows, in words a file can hold. Last Contact is the
 * time in `timeZone` ('2026-11-26 09:30:00') rather than an age; Event Messages every message,
 * newest first, '{LEVEL} {msg}' one per line; counts are numbers; a metric is its text with dp
 * and unit as the cell shows it (formatMetricCell); a missing value or blank text is null.
 */
export function tableExportCell(device: GroupDataDevice, column: TableColumn, timeZone: string): ExportCell {
  const key = column.key;
  if (!isSpecialColumn(key)) {
    const entry = Object.hasOwn(device.values, key) ? device.values[key] : undefined;
    if (entry === undefined) return null;
    const text = formatMetricCell(entry.v, column);
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
