/**
 * A device's custom charts: the relative ranges and defaults (CHT-19 - CHT-21), the chart{n} keys
 * and the limit of 5 (WGT-17, WGT-18, WGT-22), the bar chart of a numeric array with its xa1 axis
 * (WGT-20), and utilisation from the working states' hour meters (CHT-22, CHT-23).
 */
import { describe, expect, it } from 'vitest';
import {
  CHART_LIMIT_MESSAGE,
  CHART_RANGE_LABELS,
  CHART_RANGE_NAMES,
  UTILISATION_DOWNSAMPLE,
  UTILISATION_KEYS,
  UTILISATION_REFETCH_MS,
  barAxisOf,
  barChartData,
  barChartDataQuery,
  barExportTable,
  barLabel,
  chartKeyKind,
  chartableKeys,
  deviceChartDataQuery,
  deviceChartKeys,
  deviceChartOf,
  isBarChart,
  newDeviceChart,
  nextChartKey,
  numericArrayOf,
  relativeChartRange,
  reportsUtilisation,
  utilisationDataQuery,
  utilisationSeries,
} from '../src/domain/device-chart';
import { CHART_PAGE_DEFAULT_RANGE, CHART_RANGES_MS, DEVICE_CHART_DEFAULT_RANGE } from '../src/domain/constants';
import { isWorkingState } from '../src/domain/measurements';
import { DeviceChartSchema } from '../src/contracts/device-authoring';

const H = 3600;

describe('relative ranges (spec 2 section 9)', () => {
  it('are 10m ... 1M with the spec milliseconds, in button order (CHT-19)', () => {
    expect(CHART_RANGE_NAMES).toEqual(['10m', '30m', '1h', '6h', '1d', '1w', '1M']);
    expect(CHART_RANGE_NAMES.map((r) => CHART_RANGES_MS[r])).toEqual([
      600_000, 1_800_000, 3_600_000, 21_600_000, 86_400_000, 604_800_000, 2_628_000_000,
    ]);
    for (const r of CHART_RANGE_NAMES) expect(CHART_RANGE_LABELS[r]).toMatch(/^Last /);
  });

  it('default to 10 minutes on the device page and 6 hours on the chart page (CHT-20, CHT-21)', () => {
    expect(DEVICE_CHART_DEFAULT_RANGE).toBe('10m');
    expect(CHART_PAGE_DEFAULT_RANGE).toBe('6h');
  });

  it('end now, in whole seconds', () => {
    expect(relativeChartRange('10m', 1_700_000_000_500)).toEqual({ from: 1_700_000_000 - 600, to: 1_700_000_000 });
    expect(relativeChartRange('1M', 3_000_000_000_000)).toEqual({ from: 3_000_000_000 - 2_628_000, to: 3_000_000_000 });
  });
});

describe('chart{n} keys (WGT-17, WGT-18, WGT-22)', () => {
  it('lists the keys holding a chart, by number', () => {
    expect(deviceChartKeys({ chart10: {}, chart2: {}, chart3: null, vsys: {}, widget1: {}, chart0: {} })).toEqual([
      'chart2',
      'chart10',
    ]);
  });

  it('a new chart takes the lowest free number; none at 5 charts, with the spec message', () => {
    expect(nextChartKey({})).toBe('chart1');
    expect(nextChartKey({ chart1: {}, chart2: {}, chart4: {} })).toBe('chart3');
    expect(nextChartKey({ chart1: null, chart2: {} })).toBe('chart1');
    const five = { chart1: {}, chart2: {}, chart3: {}, chart7: {}, chart9: {} };
    expect(nextChartKey(five)).toBeNull();
    expect(nextChartKey({ ...five, widget1: {}, vsys: {} })).toBeNull();
    expect(CHART_LIMIT_MESSAGE).toBe('Maximum number of charts reached [5]');
  });

  it('a new chart is named after its key, has no series and passes the schema', () => {
    expect(newDeviceChart('chart3')).toEqual({ name: 'Chart 3', series: [] });
    expect(DeviceChartSchema.safeParse(newDeviceChart('chart3')).success).toBe(true);
  });

  it('a saved chart plots the device itself, whatever source was stored', () => {
    const chart = deviceChartOf(
      { name: 'Volts', series: [{ source: 'OTHER0001', key: 'vsys' }, { key: 'x' }] },
      'DEV000001',
    );
    expect(chart.series).toEqual([{ source: 'DEV000001', key: 'vsys', axisBind: 'ax1', lineWidth: 2 }]);
    expect(deviceChartOf(null, 'DEV000001')).toEqual({ series: [] });
    expect(deviceChartOf('__proto__', 'DEV000001')).toEqual({ series: [] });
  });
});

describe('keys a chart can plot', () => {
  it('numbers, booleans and numeric text draw lines; numeric arrays bars; the rest nothing', () => {
    expect(chartKeyKind(3.2)).toBe('line');
    expect(chartKeyKind(true)).toBe('line');
    expect(chartKeyKind('4.5')).toBe('line');
    expect(chartKeyKind([1, 2, 3])).toBe('bars');
    for (const v of ['text', '', [], ['1'], [1, Number.NaN], { a: 1 }, null, undefined])
      expect(chartKeyKind(v)).toBeNull();
    expect(numericArrayOf([1, 2.5, -3])).toEqual([1, 2.5, -3]);
    expect(numericArrayOf([1, null])).toBeNull();
  });

  it('lists the newest values that chart, sorted', () => {
    expect(
      chartableKeys({ vsys: { v: 12 }, spectrum: { v: [1, 2] }, name: { v: 'pump' }, events: { v: [{ msg: 'x' }] } }),
    ).toEqual([
      { key: 'spectrum', kind: 'bars' },
      { key: 'vsys', kind: 'line' },
    ]);
  });

  it("a chart is a bar chart when its first series' key holds an array", () => {
    const kinds = new Map([
      ['spectrum', 'bars' as const],
      ['vsys', 'line' as const],
    ]);
    const chart = (keys: string[]) => ({
      series: keys.map((key) => ({ source: 'D', key, axisBind: 'ax1' as const, lineWidth: 2 })),
    });
    expect(isBarChart(chart(['spectrum', 'vsys']), kinds)).toBe(true);
    expect(isBarChart(chart(['vsys', 'spectrum']), kinds)).toBe(false);
    expect(isBarChart(chart([]), kinds)).toBe(false);
    expect(isBarChart(chart(['unknown']), kinds)).toBe(false);
  });
});

describe('bar chart of a numeric array (WGT-20, CHT-12)', () => {
  it('reads xa1: label i is offset + i x scale, with its decimals', () => {
    const axis = barAxisOf({ offset: 10, scale: 0.5, dp: 1, name: 'Frequency (Hz)', tick: 2 });
    expect(axis).toEqual({ offset: 10, scale: 0.5, dp: 1, tick: 2, name: 'Frequency (Hz)' });
    const data = barChartData([[{ v: [1, 2, 3], ts: 100 }]], axis);
    expect(data.x).toEqual([10, 10.5, 11]);
    expect(data.x.map((x) => barLabel(x, axis))).toEqual(['10.0', '10.5', '11.0']);
    expect(data.values).toEqual([[1, 2, 3]]);
    expect(data.hasData).toBe(true);
    expect(data.ts).toBe(100);
  });

  it('defaults: offset 0, scale 1 (0 is 1), automatic decimals and tick; negative dp is 0', () => {
    expect(barAxisOf(undefined)).toEqual({ offset: 0, scale: 1, dp: null, tick: null, name: '' });
    expect(barAxisOf({ scale: 0, dp: -3, tick: -1 })).toMatchObject({ scale: 1, dp: 0, tick: null });
    expect(barLabel(0.1 + 0.2, { dp: null })).toBe('0.3');
  });

  it("draws each series' newest array in the range; shorter ones end early; other values are passed over", () => {
    const data = barChartData(
      [
        [
          { v: [9, 9, 9, 9], ts: 300 },
          { v: [1, 2, 3, 4], ts: 200 },
          { v: 'text', ts: 250 },
        ],
        [{ v: [5, 6], ts: 150 }],
        [{ v: 12, ts: 200 }],
      ],
      { offset: 0, scale: 1 },
      { from: 100, to: 260 },
    );
    expect(data.values).toEqual([
      [1, 2, 3, 4],
      [5, 6, null, null],
      [null, null, null, null],
    ]);
    expect(data.ts).toBe(200);
  });

  it('without an array in the range there is no data (No Data, CHT-24)', () => {
    const data = barChartData([[{ v: [1, 2], ts: 50 }], null], { offset: 0, scale: 1 }, { from: 100, to: 200 });
    expect(data).toMatchObject({ x: [], hasData: false, ts: null });
  });

  it('exports the x labels and each series per bar', () => {
    const axis = barAxisOf({ offset: 1, scale: 2, dp: 0, name: 'Bin' });
    const data = barChartData([[{ v: [4, 5], ts: 1 }], [{ v: [6], ts: 1 }]], axis);
    expect(barExportTable(['A', 'B'], data, axis)).toEqual({
      columns: ['Bin', 'A', 'B'],
      rows: [
        ['1', 4, 6],
        ['3', 5, null],
      ],
    });
    expect(barExportTable(['A'], barChartData([[{ v: [1], ts: 1 }]], barAxisOf({})), barAxisOf({})).columns).toEqual([
      'Index',
      'A',
    ]);
  });
});

describe('data calls', () => {
  const range = { from: 1000, to: 1000 + 6 * H };

  it('a line chart asks once for all its keys, raw up to 6 hours, downsampled beyond', () => {
    expect(deviceChartDataQuery(range, ['vsys', 'batt', 'vsys'])).toEqual({
      fromTime: 1000,
      toTime: 1000 + 6 * H,
      dataKeys: 'vsys,batt',
      dataPoints: 600,
      events: 'false',
    });
    expect(deviceChartDataQuery({ from: 0, to: 86_400 }, ['vsys']).downsample).toBe('true');
  });

  it('a bar chart asks for the newest record, never downsampled (buckets average numbers only)', () => {
    const q = barChartDataQuery({ from: 0, to: 86_400 }, ['spectrum']);
    expect(q).toEqual({ fromTime: 0, toTime: 86_400, dataKeys: 'spectrum', dataPoints: 1, events: 'false' });
  });

  it('the utilisation chart asks for the working meters with downsample=2 and refetches every 10 minutes (CHT-22)', () => {
    expect(utilisationDataQuery(range)).toMatchObject({
      dataKeys: 'state4_hrs,state5_hrs,state6_hrs',
      downsample: '2',
      dataPoints: 600,
      events: 'false',
    });
    expect(UTILISATION_DOWNSAMPLE).toBe('2');
    expect(UTILISATION_REFETCH_MS).toBe(600_000);
  });
});

describe('utilisation (CHT-23: work-hour states 4-6 count as working)', () => {
  it('states [3, 4, 6, 7] count as [no, yes, yes, no]; the meters read are those of 4, 5 and 6', () => {
    expect([3, 4, 6, 7].map(isWorkingState)).toEqual([false, true, true, false]);
    expect(UTILISATION_KEYS).toEqual(['state4_hrs', 'state5_hrs', 'state6_hrs']);
    expect(reportsUtilisation(['vsys', 'state5_hrs'])).toBe(true);
    expect(reportsUtilisation(['vsys', 'state3_hrs', 'state7_hrs', 'hourmeter_hrs'])).toBe(false);
  });

  it('each interval: the working hours gained over the hours passed, in %; totals over the intervals', () => {
    // 1 -> 2 h: 0.5 h in state 4; 2 -> 3 h: 0.25 h in state 5 and 0.75 h in state 6; 3 -> 4 h: none.
    const data = {
      state4_hrs: [
        { v: 10.5, ts: 4 * H },
        { v: 10.5, ts: 3 * H },
        { v: 10.5, ts: 2 * H },
        { v: 10, ts: H },
      ],
      state5_hrs: [
        { v: 2, ts: H },
        { v: 2, ts: 2 * H },
        { v: 2.25, ts: 3 * H },
        { v: 2.25, ts: 4 * H },
      ],
      state6_hrs: [
        { v: 1, ts: H },
        { v: 1, ts: 2 * H },
        { v: 1.75, ts: 3 * H },
        { v: 1.75, ts: 4 * H },
      ],
      state3_hrs: [{ v: 100, ts: H }],
    };
    const u = utilisationSeries(data);
    expect(u.x).toEqual([H, 2 * H, 3 * H, 4 * H]);
    expect(u.values).toEqual([[null, 50, 100, 0]]);
    // The first interval's value also at its start, so a backward step covers it.
    expect(u.plotted).toEqual([[50, 50, 100, 0]]);
    expect(u).toMatchObject({ workingHours: 1.5, elapsedHours: 3, share: 50, hasData: true });
  });

  it('only the meters the device reports count; readings missing one of them are passed over', () => {
    const u = utilisationSeries({
      state4_hrs: [
        { v: 0, ts: 0 },
        { v: 0.5, ts: H },
        { v: 0.5, ts: 2 * H },
      ],
      state5_hrs: [
        { v: 0, ts: 0 },
        { v: 1, ts: 2 * H },
      ],
    });
    expect(u.x).toEqual([0, 2 * H]);
    expect(u.values).toEqual([[null, 75]]);
  });

  it('a meter going back (a reset) or more hours than passed: the interval is left out or capped at 100 %', () => {
    const u = utilisationSeries({
      state4_hrs: [
        { v: 5, ts: 0 },
        { v: 1, ts: H },
        { v: 3, ts: 2 * H },
      ],
    });
    expect(u.values).toEqual([[null, null, 100]]);
    expect(u.share).toBe(100);
  });

  it('points outside the range are left out; the range ends are in x; nothing to measure is No Data', () => {
    const u = utilisationSeries(
      {
        state4_hrs: [
          { v: 1, ts: 50 },
          { v: 1, ts: 150 },
        ],
      },
      { from: 100, to: 200 },
    );
    expect(u.x).toEqual([100, 150, 200]);
    expect(u.hasData).toBe(false);
    expect(u.share).toBeNull();
    expect(utilisationSeries({}).hasData).toBe(false);
    expect(
      utilisationSeries({
        state4_hrs: [
          { v: 'x', ts: 1 },
          { v: null, ts: 2 },
        ],
      }).x,
    ).toEqual([]);
  });
});
