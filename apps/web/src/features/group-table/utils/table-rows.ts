/**
 * The table's row model: one row per device with each column's filter and sort value read once
 * (core's columnValue), then filtered (core's matchesFilter) and sorted (core's compareCellValues)
 * over the whole group, so the DataTable only ever draws the page it shows.
 */
import {
  columnValue,
  compareCellValues,
  isFilterComplete,
  matchesFilter,
  type ActiveFilter,
  type GroupDataDevice,
  type TableColumn,
} from '@portal/core';

export type CellValue = string | number | null;

export interface TableRow {
  deviceid: string;
  device: GroupDataDevice;
  /** Filter and sort values, by column index. */
  cells: readonly CellValue[];
}

/** A filter on the column at `index`. */
export interface IndexedFilter {
  index: number;
  filter: ActiveFilter;
}

export function buildRows(devices: readonly GroupDataDevice[], columns: readonly TableColumn[]): TableRow[] {
  return devices.map((device) => ({
    deviceid: device.deviceid,
    device,
    cells: columns.map((column) => columnValue(device, column)),
  }));
}

/** The rows every complete filter keeps (all filters apply together). */
export function filterRows(rows: readonly TableRow[], filters: readonly IndexedFilter[]): readonly TableRow[] {
  const active = filters.filter((f) => isFilterComplete(f.filter));
  if (active.length === 0) return rows;
  return rows.filter((row) => active.every((f) => matchesFilter(row.cells[f.index] ?? null, f.filter)));
}

/** The rows sorted on the column at `index`, ascending (1) or descending (-1); missing values last either way. */
export function sortRows(rows: readonly TableRow[], index: number, order: 1 | -1): readonly TableRow[] {
  const keys = rows.map((row) => {
    const v = row.cells[index] ?? null;
    return typeof v === 'string' ? v.toLowerCase() : v;
  });
  const indices = rows.map((_, i) => i);
  indices.sort((a, b) => {
    const x = keys[a] ?? null;
    const y = keys[b] ?? null;
    if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
    return order * compareCellValues(x, y) || a - b;
  });
  return indices.map((i) => rows[i] as TableRow);
}
