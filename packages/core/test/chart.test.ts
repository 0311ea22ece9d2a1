/** The group chart's rules: axis bounds (CHT-13 - CHT-16), the data call of a series (CHT-18) and aligned, stacked data. */
import { describe, expect, it } from 'vitest';
import {
  CHART_RAW_MAX_RANGE_S,
  alignChartData,
  chartExportTable,
  chartSettingsOf,
  chartAxisBounds,
  chartDataQuery,
  chartValue,
} from '../src/domain/chart';
import { ChartSeriesSchema, ChartSettingsSchema } from '../src/contracts/views';

describe('chartAxisBounds (spec 2 section 5)', () => {
  it('min equal to max widens by 1 on each side (CHT-13)', () => {
    expect(chartAxisBounds({ min: 5, max: 5 })).toMatchObject({ min: 4, max: 6 });
    expect(chartAxisBounds({ min: 0, max: 0 })).toMatchObject({ min: -1, max: 1 });
  });

  it('min above max swaps them (CHT-14)', () => {
    expect(chartAxisBounds({ min: 10, max: 2 })).toMatchObject({ min: 2, max: 10 });
    expect(chartAxisBounds({ min: 2, max: 10 })).toMatchObject({ min: 2, max: 10 });
  });

  it('negative decimals become 0 (CHT-15); fractions drop', () => {
    expect(chartAxisBounds({ dp: -2 }).dp).toBe(0);
    expect(chartAxisBounds({ dp: 3 }).dp).toBe(3);
    expect(chartAxisBounds({ dp: 2.7 }).dp).toBe(2);
    expect(chartAxisBounds({}).dp).toBeNull();
  });

  it('a negative tick becomes 1 (CHT-16); 0 is automatic', () => {
    expect(chartAxisBounds({ tick: -5 }).tick).toBe(1);
    expect(chartAxisBounds({ tick: 0.5 }).tick).toBe(0.5);
    expect(chartAxisBounds({ tick: 0 }).tick).toBeNull();
  });

  it('missing, null and non-finite bounds stay automatic, one bound alone is kept', () => {
    expect(chartAxisBounds(undefined)).toEqual({ min: null, max: null, dp: null, tick: null });
    expect(chartAxisBounds({ min: null, max: Number.NaN })).toMatchObject({ min: null, max: null });
    expect(chartAxisBounds({ min: 3 })).toMatchObject({ min: 3, max: null });
    expect(chartAxisBounds({ max: -3 })).toMatchObject({ min: null, max: -3 });
  });
});

describe('chart settings contract', () => {
  it('a new series has lineWidth 2 and axis ax1 (CHT-11); a 16th series is refused (spec 2 section 9)', () => {
    const s = ChartSeriesSchema.parse({ source: 'D1', key: 'batt' });
    expect(s).toMatchObject({ lineWidth: 2, axisBind: 'ax1' });
    const series = Array.from({ length: 16 }, (_, i) => ({ source: `D${i}`, key: 'batt' }));
    const refused = ChartSettingsSchema.safeParse({ series });
    expect(refused.success).toBe(false);
    expect(ChartSettingsSchema.safeParse({ series: series.slice(0, 15) }).success).toBe(true);
  });
});

describe('chartDataQuery', () => {
  it('asks 600 points of the series key (CHT-18) without events; raw up to 6 hours, downsampled beyond', () => {
    const short = chartDataQuery({ from: 1000, to: 1000 + CHART_RAW_MAX_RANGE_S }, 'batt');
    expect(short).toEqual({
      fromTime: 1000,
      toTime: 1000 + CHART_RAW_MAX_RANGE_S,
      dataKeys: 'batt',
      dataPoints: 600,
      events: 'false',
    });
    const week = chartDataQuery({ from: 0, to: 7 * 86_400 }, 'vsys');
    expect(week).toEqual({
      fromTime: 0,
      toTime: 604_800,
      dataKeys: 'vsys',
      dataPoints: 600,
      downsample: 'true',
      events: 'false',
    });
  });
});

describe('chartValue', () => {
  it('finite numbers, booleans and numeric text; anything else is none', () => {
    expect([3.5, true, false, '2.5', '', 'x', null, Number.NaN, Infinity, {}].map(chartValue)).toEqual([
      3.5,
      1,
      0,
      2.5,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('alignChartData', () => {
  const a = [
    { v: 3, ts: 200 },
    { v: 1, ts: 100 },
  ];
  const b = [
    { v: 10, ts: 300 },
    { v: 20, ts: 200 },
  ];

  it('x is every time ascending (newest-first input), each series null where it has no point', () => {
    const d = alignChartData([{}, {}], [a, b]);
    expect(d.x).toEqual([100, 200, 300]);
    expect(d.values).toEqual([
      [1, 3, null],
      [null, 20, 10],
    ]);
    expect(d.plotted).toEqual(d.values);
    expect(d.hasData).toBe(true);
  });

  it('the range ends join x (the chart spans the view) and points outside it drop', () => {
    const d = alignChartData([{}], [[...a, { v: 9, ts: 5000 }]], { range: { from: 50, to: 400 } });
    expect(d.x).toEqual([50, 100, 200, 400]);
    expect(d.values).toEqual([[null, 1, 3, null]]);
  });

  it('no points, or only non-numeric ones, is no data (the chart shows No Data)', () => {
    expect(alignChartData([{}, {}], [[], undefined], { range: { from: 0, to: 10 } }).hasData).toBe(false);
    expect(alignChartData([{}], [[{ v: 'text', ts: 5 }]]).hasData).toBe(false);
    expect(alignChartData([], []).hasData).toBe(false);
  });

  it('stacking adds each series to the ones before it on the same axis; goal series and the other axis do not stack', () => {
    const c = [
      { v: 5, ts: 100 },
      { v: 5, ts: 300 },
    ];
    const d = alignChartData(
      [{ axisBind: 'ax1' }, { axisBind: 'ax1' }, { axisBind: 'ax1', goalSeries: true }, { axisBind: 'ax2' }, {}],
      [a, b, c, c, c],
      { stack: true },
    );
    expect(d.x).toEqual([100, 200, 300]);
    expect(d.plotted[0]).toEqual([1, 3, null]);
    expect(d.plotted[1]).toEqual([null, 23, 10]);
    expect(d.plotted[2]).toEqual([5, null, 5]); // goal: as is
    expect(d.plotted[3]).toEqual([5, null, 5]); // alone on ax2
    // The fifth (ax1 by default) stacks on the first two: 1 at 100 (from the first), 10 at 300 (from the second).
    expect(d.plotted[4]).toEqual([6, null, 15]);
    expect(d.values[1]).toEqual([null, 20, 10]);
  });

  it('reads at most 15 series', () => {
    const series = Array.from({ length: 16 }, () => ({}));
    const d = alignChartData(
      series,
      Array.from({ length: 16 }, () => a),
    );
    expect(d.values).toHaveLength(15);
  });
});

describe('chartExportTable', () => {
  it('time first in ISO UTC, each series its own (unstacked) values, rows without any value left out', () => {
    const d = alignChartData(
      [{}, {}],
      [
        [{ v: 1.5, ts: 1_700_000_000 }],
        [
          { v: 2, ts: 1_700_000_000 },
          { v: 3, ts: 1_700_000_060 },
        ],
      ],
      { stack: true, range: { from: 1_699_999_000, to: 1_700_001_000 } },
    );
    expect(chartExportTable(['A · batt', 'B · batt'], d)).toEqual({
      columns: ['Time', 'A · batt', 'B · batt'],
      rows: [
        ['2023-11-14T22:13:20.000Z', 1.5, 2],
        ['2023-11-14T22:14:20.000Z', null, 3],
      ],
    });
    expect(chartExportTable([], { x: [], values: [] })).toEqual({ columns: ['Time'], rows: [] });
  });
});

describe('chartSettingsOf', () => {
  it('reads a saved chart field by field: series need source and key, ax1 and lineWidth 2 by default, at most 15', () => {
    const read = chartSettingsOf({
      name: 'Fleet',
      stack: true,
      series: [
        { source: 'D1', key: 'batt', axisBind: 'ax2', lineWidth: 3, colour: '#000000' },
        { source: 'D2', key: 'vsys' },
        { source: 'D3' },
        'nonsense',
      ],
    });
    expect(read).toEqual({
      name: 'Fleet',
      stack: true,
      series: [
        { source: 'D1', key: 'batt', axisBind: 'ax2', lineWidth: 3, colour: '#000000' },
        { source: 'D2', key: 'vsys', axisBind: 'ax1', lineWidth: 2 },
      ],
    });
    expect(chartSettingsOf(null)).toEqual({ series: [] });
    expect(chartSettingsOf({ series: 'x' })).toEqual({ series: [] });
    const many = Array.from({ length: 20 }, (_, i) => ({ source: `D${i}`, key: 'batt' }));
    expect(chartSettingsOf({ series: many }).series).toHaveLength(15);
  });
});
