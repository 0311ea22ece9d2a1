/**
 * Rules of the widget editor (spec 2 sections 3 and 9; ledger CHT-11, CHT-17): what a new chart
 * series and a new table column start as, and when a chart takes no more series.
 */
import { MAX_GROUP_CHART_SERIES } from './constants';
import { widgetLimitMessage } from './screen-messages';
import type { ChartSettings, TableColumn } from '../contracts/views';
import { DEFAULT_CHART_LINE_WIDTH } from './widget-kinds';

type ChartSeries = ChartSettings['series'][number];

/**
 * Why a chart with `count` series takes no other (CHT-17): 'Maximum number of series reached
 * [15]' once it has MAX_GROUP_CHART_SERIES, else null.
 */
export function addChartSeriesError(count: number): string | null {
  return count >= MAX_GROUP_CHART_SERIES ? widgetLimitMessage('serie', MAX_GROUP_CHART_SERIES) : null;
}

/** A new series of device `source`: no key yet, on ax1, line width 2 (CHT-11). */
export function newChartSeries(source: string): ChartSeries {
  return { source, key: '', axisBind: 'ax1', lineWidth: DEFAULT_CHART_LINE_WIDTH };
}

/** A new metric column of a table: no key or name yet, numeric. */
export function newTableColumn(): TableColumn {
  return { key: '', dataType: 'number', name: '' };
}
