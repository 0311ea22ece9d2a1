/**
 * A group chart's plotted data as a table for the CSV and workbook export: core's
 * chartExportTable (time column first, ISO times, each series' own values), given the chart's
 * series labels (chartSeriesLabel) and its aligned data (alignChartData).
 */
export { CHART_EXPORT_TIME_COLUMN, chartExportTable, type ExportTable } from '@portal/core';
