import { describe, expect, it } from 'vitest';
import {
  ChartSettingsSchema,
  MAX_GROUP_CHART_SERIES,
  TableSettingsSchema,
  addChartSeriesError,
  newChartSeries,
  newTableColumn,
} from '../src/index';

describe('widget editor rules (CHT-11, CHT-17)', () => {
  it('a chart takes series up to 15; the 16th is refused with the spec message', () => {
    expect(addChartSeriesError(0)).toBeNull();
    expect(addChartSeriesError(MAX_GROUP_CHART_SERIES - 1)).toBeNull();
    expect(addChartSeriesError(MAX_GROUP_CHART_SERIES)).toBe('Maximum number of series reached [15]');
    expect(addChartSeriesError(MAX_GROUP_CHART_SERIES + 3)).toBe('Maximum number of series reached [15]');
  });

  it('the contract agrees: 15 series save, 16 do not, with the same message', () => {
    const series = (n: number) => Array.from({ length: n }, () => ({ ...newChartSeries('DEV1'), key: 'flow' }));
    expect(ChartSettingsSchema.safeParse({ series: series(15) }).success).toBe(true);
    const refused = ChartSettingsSchema.safeParse({ series: series(16) });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(addChartSeriesError(16));
  });

  it('a new series has line width 2 on ax1 and needs a key before it saves', () => {
    expect(newChartSeries('DEV1')).toEqual({ source: 'DEV1', key: '', axisBind: 'ax1', lineWidth: 2 });
    const parsed = ChartSettingsSchema.safeParse({ series: [newChartSeries('DEV1')] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['series', 0, 'key']);
  });

  it('a new table column needs a key before it saves', () => {
    const parsed = TableSettingsSchema.safeParse({ columns: [newTableColumn()] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['columns.0.key']);
    expect(TableSettingsSchema.safeParse({ columns: [{ ...newTableColumn(), key: 'flow' }] }).success).toBe(true);
  });
});
