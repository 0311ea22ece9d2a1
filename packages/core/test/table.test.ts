import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TABLE_SETTINGS,
  FILTER_OPERATOR_LABELS,
  NUMBER_FILTER_OPERATORS,
  SPECIAL_COLUMN_KINDS,
  TEXT_FILTER_OPERATORS,
  TableSettingsSchema,
  aggregate,
  cellMessages,
  columnHeader,
  columnValue,
  compareCellValues,
  countColourClass,
  filterOperatorsFor,
  formatMetricCell,
  isSpecialColumn,
  isTextColumn,
  matchesFilter,
  metricOfStats,
  metricValue,
  statsKeysOf,
  tableExportCell,
  tablePageSize,
  thresholdColour,
} from '../src/index';
import { makeGroupDataDevice } from '../src/testing';

const device = makeGroupDataDevice;

describe('table columns (TBL-01 to TBL-04)', () => {
  it('validates the default settings and a full column', () => {
    expect(TableSettingsSchema.safeParse(DEFAULT_TABLE_SETTINGS).success).toBe(true);
    const full = {
      columns: [
        {
          key: 'temp',
          dataType: 'number',
          name: 'Temperature',
          unit: '°C',
          unitInHeader: true,
          dp: 1,
          trendColor: '#00ff00',
          thresholds: [{ value: 30, colour: 'red' }],
        },
      ],
      pageSize: 25,
      filters: [{ key: 'temp', operator: 'between', value: 10, value2: 20 }],
    };
    expect(TableSettingsSchema.safeParse(full).success).toBe(true);
  });

  it('reads every special kind from the device without a metric lookup (TBL-03)', () => {
    const d = device({ values: {} });
    for (const kind of SPECIAL_COLUMN_KINDS) {
      expect(isSpecialColumn(kind)).toBe(true);
      expect(columnValue(d, { key: kind })).not.toBeNull();
    }
    expect(isSpecialColumn('temp')).toBe(false);
  });

  it('names the headers, blank names take the special header, unitInHeader adds the unit (TBL-04, TBL-21)', () => {
    expect(columnHeader({ key: 'ts', dataType: 'special', name: '' })).toBe('Last Contact');
    expect(columnHeader({ key: 'type', dataType: 'special', name: ' ' })).toBe('Asset Type');
    expect(columnHeader({ key: 'fw', dataType: 'special', name: '' })).toBe('Firmware');
    expect(columnHeader({ key: 'temp', dataType: 'number', name: 'Temp', unit: '°C', unitInHeader: true })).toBe(
      'Temp (°C)',
    );
    expect(columnHeader({ key: 'temp', dataType: 'number', name: 'Temp', unit: '°C' })).toBe('Temp');
  });
});

describe('filter operators per column kind (TBL-06, TBL-07, TBL-08)', () => {
  it('offers the four text operators on text columns and the seven others elsewhere', () => {
    for (const key of ['fw', 'type', 'deviceid', 'messages', 'machineMake', 'machineModel']) {
      expect(isTextColumn(key)).toBe(true);
      expect(filterOperatorsFor(key)).toEqual(['startsWith', 'contains', 'notContains', 'endsWith']);
    }
    for (const key of ['ts', 'alarmCount', 'temp']) {
      expect(isTextColumn(key)).toBe(false);
      expect(filterOperatorsFor(key)).toEqual(['lt', 'lte', 'gt', 'gte', 'equals', 'notEquals', 'between']);
    }
    for (const op of [...TEXT_FILTER_OPERATORS, ...NUMBER_FILTER_OPERATORS])
      expect(FILTER_OPERATOR_LABELS[op]).toBeTruthy();
    expect(FILTER_OPERATOR_LABELS.notContains).toBe('Does not contain');
  });

  it('matches text case-insensitively', () => {
    expect(matchesFilter('SFW003-1.2.3', { key: 'fw', operator: 'startsWith', value: 'sfw' })).toBe(true);
    expect(matchesFilter('SFW003-1.2.3', { key: 'fw', operator: 'endsWith', value: '2.3' })).toBe(true);
    expect(matchesFilter('SFW003-1.2.3', { key: 'fw', operator: 'contains', value: '003-1' })).toBe(true);
    expect(matchesFilter('SFW003-1.2.3', { key: 'fw', operator: 'notContains', value: '003' })).toBe(false);
    expect(matchesFilter(null, { key: 'fw', operator: 'notContains', value: 'x' })).toBe(true);
    expect(matchesFilter(null, { key: 'fw', operator: 'contains', value: 'x' })).toBe(false);
  });

  it('compares numbers; between keeps [low, high] whichever bound comes first', () => {
    const f = (operator: (typeof NUMBER_FILTER_OPERATORS)[number], value: number, value2?: number) => ({
      key: 'temp',
      operator,
      value,
      value2: value2 ?? null,
    });
    expect(matchesFilter(5, f('lt', 6))).toBe(true);
    expect(matchesFilter(6, f('lt', 6))).toBe(false);
    expect(matchesFilter(6, f('lte', 6))).toBe(true);
    expect(matchesFilter(7, f('gt', 6))).toBe(true);
    expect(matchesFilter(6, f('gt', 6))).toBe(false);
    expect(matchesFilter(6, f('gte', 6))).toBe(true);
    expect(matchesFilter(6, f('equals', 6))).toBe(true);
    expect(matchesFilter(6, f('notEquals', 6))).toBe(false);
    const kept = [5, 10, 15, 20, 25].filter((v) => matchesFilter(v, f('between', 10, 20)));
    expect(kept).toEqual([10, 15, 20]);
    expect([5, 10, 15, 20, 25].filter((v) => matchesFilter(v, f('between', 20, 10)))).toEqual([10, 15, 20]);
    expect(matchesFilter(null, f('gt', 0))).toBe(false);
    expect(matchesFilter(null, f('notEquals', 0))).toBe(true);
    expect(matchesFilter('12', f('gt', 10))).toBe(true);
  });

  it('keeps every row while a filter lacks its bound', () => {
    expect(matchesFilter(1, { key: 'temp', operator: 'gt', value: null })).toBe(true);
    expect(matchesFilter(1, { key: 'temp', operator: 'between', value: 5, value2: null })).toBe(true);
    expect(matchesFilter('a', { key: 'fw', operator: 'contains', value: '' })).toBe(true);
  });
});

describe('cell values', () => {
  it('reads metrics, counts, ts and messages from the device', () => {
    const d = device();
    expect(columnValue(d, { key: 'temp' })).toBe(21.456);
    expect(columnValue(d, { key: 'label' })).toBe('open');
    expect(columnValue(d, { key: 'missing' })).toBeNull();
    expect(columnValue(d, { key: 'alarmCount' })).toBe(2);
    expect(columnValue(d, { key: 'ts' })).toBe(1_700_000_000);
    expect(columnValue(device({ ts: null }), { key: 'ts' })).toBeNull();
    expect(columnValue(d, { key: 'messages' })).toBe('old\nPressure high\nDoor open');
  });

  it('sorts numbers by value, text case-insensitively, missing last', () => {
    expect([3, null, 1, 2].sort(compareCellValues)).toEqual([1, 2, 3, null]);
    expect(['b', 'A', 'c'].sort(compareCellValues)).toEqual(['A', 'b', 'c']);
  });

  it('formats with dp and the unit in the cell unless in the header (TBL-21, TBL-22)', () => {
    expect(formatMetricCell(3.14159, { dp: 1 })).toBe('3.1');
    expect(formatMetricCell(3.14159, { dp: 1, unit: 'bar' })).toBe('3.1 bar');
    expect(formatMetricCell(3.14159, { dp: 1, unit: 'bar', unitInHeader: true })).toBe('3.1');
    expect(formatMetricCell(3.14159, {})).toBe('3.14159');
    expect(formatMetricCell(-0.01, { dp: 1 })).toBe('0.0');
    expect(formatMetricCell('open', { unit: 'x' })).toBe('open');
    expect(formatMetricCell(undefined, {})).toBe('');
    expect(formatMetricCell({ a: 1 }, {})).toBe('???');
  });

  it('colours counts above 0 by their severity (TBL-05)', () => {
    expect(countColourClass('alarmCount', 2)).toBe('danger');
    expect(countColourClass('warningCount', 1)).toBe('warning');
    expect(countColourClass('alertCount', 3)).toBe('info');
    expect(countColourClass('infoCount', 3)).toBe('muted');
    expect(countColourClass('alarmCount', 0)).toBeNull();
  });

  it('colours a value by the highest threshold it reaches (TBL-23)', () => {
    const rules = [
      { value: 50, colour: '#d32f2f' },
      { value: 30, colour: '#f59e0b' },
    ];
    expect(thresholdColour(20, rules)).toBeNull();
    expect(thresholdColour(30, rules)).toBe('#f59e0b');
    expect(thresholdColour(60, rules)).toBe('#d32f2f');
    expect(thresholdColour('x', rules)).toBeNull();
    expect(thresholdColour(60, [{ value: 1, colour: 'url(evil)' }])).toBeNull();
    expect(thresholdColour(60, undefined)).toBeNull();
  });

  it('shows the newest messages first with their severity class', () => {
    const shown = cellMessages(device().messages, 2);
    expect(shown.map((m) => m.message.msg)).toEqual(['Pressure high', 'Door open']);
    expect(shown.map((m) => m.colourClass)).toEqual(['danger', 'warning']);
  });
});

describe('paging and operators (TBL-10, TBL-11, TBL-19)', () => {
  it('uses the configured page size, else 10', () => {
    expect(tablePageSize({})).toBe(10);
    expect(tablePageSize({ pageSize: 25 })).toBe(25);
    expect(tablePageSize({ pageSize: 50 })).toBe(50);
  });

  it('aggregates [1, 2, 3]', () => {
    const points = [
      { v: 3, ts: 1 },
      { v: 1, ts: 3 },
      { v: 2, ts: 2 },
      { v: 'x', ts: 4 },
    ];
    expect(aggregate(points, 'avg')).toBe(2);
    expect(aggregate(points, 'sum')).toBe(6);
    expect(aggregate(points, 'max')).toBe(3);
    expect(aggregate(points, 'min')).toBe(1);
    expect(aggregate(points, 'latest')).toBe(1);
    expect(aggregate([], 'avg')).toBeNull();
  });

  it('a column with avg, sum, max or min shows that operator over the range (the stats of [1, 2, 3]); latest or none the latest value', () => {
    const stats = { count: 3, sum: 6, min: 1, max: 3 };
    expect(metricOfStats(stats, 'avg')).toBe(2);
    expect(metricOfStats(stats, 'sum')).toBe(6);
    expect(metricOfStats(stats, 'max')).toBe(3);
    expect(metricOfStats(stats, 'min')).toBe(1);
    expect(metricOfStats(undefined, 'avg')).toBeNull();
    expect(metricOfStats({ count: 0, sum: 0, min: 0, max: 0 }, 'sum')).toBeNull();
    const d = device({ values: { temp: { v: 1, ts: 3 } }, stats: { temp: stats } });
    expect(metricValue(d, { key: 'temp', operator: 'avg' })).toBe(2);
    expect(metricValue(d, { key: 'temp', operator: 'sum' })).toBe(6);
    expect(metricValue(d, { key: 'temp', operator: 'latest' })).toBe(1);
    expect(metricValue(d, { key: 'temp' })).toBe(1);
    expect(metricValue(d, { key: 'other', operator: 'max' })).toBeUndefined();
    expect(
      metricValue(device({ values: { temp: { v: 1, ts: 3 } } }), { key: 'temp', operator: 'max' }),
    ).toBeUndefined();
    expect(columnValue(d, { key: 'temp', operator: 'max' })).toBe(3);
    expect(tableExportCell(d, { key: 'temp', dataType: 'number', name: 'T', operator: 'avg', dp: 1 }, 'UTC')).toBe(
      '2.0',
    );
  });

  it('asks stats for the metric columns with a range operator only', () => {
    expect(
      statsKeysOf([
        { key: 'a', operator: 'avg' },
        { key: 'b', operator: 'latest' },
        { key: 'c' },
        { key: 'alarmCount', operator: 'sum' },
        { key: 'd', operator: 'min' },
      ]),
    ).toEqual(['a', 'd']);
  });
});
