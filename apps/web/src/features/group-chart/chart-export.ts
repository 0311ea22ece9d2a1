/**
 * A group chart's data as a table, for the CSV and workbook export (issue 13: 'chart series as
 * plotted'): a time column first (ISO 8601, UTC), then one column per series with its own value
 * at that time (not the stacked sum: the file holds the readings), one row per time at which at
 * least one series has a value.
 */
export interface ChartExportTable {
  columns: string[];
  rows: (string | number | null)[][];
}

/** The time column's header. */
export const CHART_EXPORT_TIME_COLUMN = 'Time';

/**
 * The chart's table from its series labels and aligned data (core alignChartData's x in epoch
 * seconds and each series' values). Rows without any value (the range's ends) are left out.
 */
export function chartExportTable(
  labels: readonly string[],
  data: { x: readonly number[]; values: readonly (readonly (number | null)[])[] },
): ChartExportTable {
  const columns = [CHART_EXPORT_TIME_COLUMN, ...labels];
  const rows: (string | number | null)[][] = [];
  data.x.forEach((ts, i) => {
    const cells = labels.map((_, s) => data.values[s]?.[i] ?? null);
    if (cells.every((v) => v === null)) return;
    rows.push([new Date(ts * 1000).toISOString(), ...cells]);
  });
  return { columns, rows };
}
