import { describe, expect, it } from 'vitest';
import {
  HEADLINE_EXPORT_COLUMNS,
  SPECIAL_COLUMN_HEADERS,
  csvCell,
  exportDate,
  exportDateTime,
  exportFileName,
  exportRangeText,
  fileNamePart,
  groupTableExport,
  guardFormula,
  headlineExport,
  tableExportCell,
  tableToCsv,
  type TableColumn,
} from '../src/index';
import { makeGroupDataDevice } from '../src/testing';

/** 2026-11-26 09:30:15 UTC. */
const T = Date.UTC(2026, 10, 26, 9, 30, 15) / 1000;

describe('CSV (RFC 4180) with the formula guard', () => {
  it('quotes fields holding a quote, a comma, CR or LF, and doubles inner quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell('')).toBe('');
  });

  it('writes null, undefined and non-finite numbers as empty; numbers and booleans as they print', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(Number.POSITIVE_INFINITY)).toBe('');
    expect(csvCell(-3.5)).toBe('-3.5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(true)).toBe('true');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });

  it.each([
    ['=1+2', "'=1+2"],
    ['+1+2', "'+1+2"],
    ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['-3.20 V', "'-3.20 V"],
    ['---', "'---"],
  ])('guards text a spreadsheet would run: %j', (text, guarded) => {
    expect(guardFormula(text)).toBe(guarded);
  });

  it.each(['-3.5', '+2', '-0.25', '-.5', '1e5', '-1.5E-3', 'a=b', ' =1', '12.40 V', '__proto__'])(
    'leaves plain numbers and other text alone: %j',
    (text) => {
      expect(guardFormula(text)).toBe(text);
    },
  );

  it('guards before quoting, so a guarded cell with a comma is quoted whole', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell('-3.5')).toBe('-3.5');
  });

  it('writes the header and each row as a record ended by CRLF', () => {
    const csv = tableToCsv({
      columns: ['Device ID', 'Temp, °C'],
      rows: [
        ['ABC', 21.5],
        ['DEF', null],
      ],
    });
    expect(csv).toBe('Device ID,"Temp, °C"\r\nABC,21.5\r\nDEF,\r\n');
    expect(tableToCsv({ columns: [], rows: [] })).toBe('\r\n');
  });
});

describe('export file names', () => {
  it('dates a range in the viewer zone, the end being the day of its last second', () => {
    const week = { from: Date.UTC(2026, 10, 19, 10) / 1000, to: Date.UTC(2026, 10, 26, 10) / 1000 };
    expect(exportRangeText(week, 'UTC')).toBe('2026-11-19 to 2026-11-26');
    // Monday 00:00 to Monday 00:00 (Berlin): the previous week ends on Sunday.
    const previousWeek = { from: Date.UTC(2026, 10, 15, 23) / 1000, to: Date.UTC(2026, 10, 22, 23) / 1000 };
    expect(exportRangeText(previousWeek, 'Europe/Berlin')).toBe('2026-11-16 to 2026-11-22');
    // 23:30 UTC is the next day in Sydney.
    expect(exportDate(Date.UTC(2026, 10, 26, 23, 30) / 1000, 'Australia/Sydney')).toBe('2026-11-27');
    expect(exportDateTime(T, 'Europe/Berlin')).toBe('2026-11-26 10:30:15');
    expect(exportDateTime(Date.UTC(2026, 10, 26, 0, 5) / 1000, 'UTC')).toBe('2026-11-26 00:05:00');
  });

  it('names the group, the widget and the range', () => {
    const range = { from: Date.UTC(2026, 10, 19, 10) / 1000, to: Date.UTC(2026, 10, 26, 10) / 1000 };
    expect(exportFileName({ groupName: 'North Yard', title: 'Devices', range, timeZone: 'UTC' }, 'csv')).toBe(
      'North Yard - Devices - 2026-11-19 to 2026-11-26.csv',
    );
    expect(exportFileName({ groupName: 'A/B: C*', title: 'Battery · Average', range, timeZone: 'UTC' }, 'xlsx')).toBe(
      'A_B_ C_ - Battery · Average - 2026-11-19 to 2026-11-26.xlsx',
    );
  });

  it.each([
    ['a\\b/c:d*e?f"g<h>i|j', 'a_b_c_d_e_f_g_h_i_j'],
    ['  ..name.. ', 'name'],
    ['tab\there', 'tab_here'],
    ['many   spaces', 'many spaces'],
    ['', 'export'],
    ['...', 'export'],
    ['__proto__', '__proto__'],
  ])('makes %j safe for a file name', (text, safe) => {
    expect(fileNamePart(text)).toBe(safe);
  });
});

describe('the group table export', () => {
  const columns: TableColumn[] = [
    { key: 'deviceid', dataType: 'special', name: '' },
    { key: 'ts', dataType: 'special', name: 'Last Contact' },
    { key: 'messages', dataType: 'special', name: 'Event Messages' },
    { key: 'alarmCount', dataType: 'special', name: '' },
    { key: 'temp', dataType: 'number', name: 'Temperature', unit: '°C', dp: 1 },
    { key: 'temp', dataType: 'number', name: 'Temp', unit: '°C', unitInHeader: true, dp: 2 },
    { key: 'machineMake', dataType: 'special', name: 'Make' },
    { key: 'missing', dataType: 'number', name: 'Missing' },
    { key: 'label', dataType: 'text', name: 'Label' },
  ];

  it('answers the headers as the table shows them and each cell as shown, in the given order', () => {
    const a = makeGroupDataDevice({ deviceid: 'AAA000001', ts: T });
    const b = makeGroupDataDevice({
      deviceid: 'BBB000002',
      ts: null,
      messages: [],
      machineMake: '',
      alarmCount: 0,
      values: { temp: { v: -0.04, ts: T } },
    });
    const table = groupTableExport([b, a], columns, 'UTC');
    expect(table.columns).toEqual([
      SPECIAL_COLUMN_HEADERS.deviceid,
      'Last Contact',
      'Event Messages',
      SPECIAL_COLUMN_HEADERS.alarmCount,
      'Temperature',
      'Temp (°C)',
      'Make',
      'Missing',
      'Label',
    ]);
    expect(table.rows).toEqual([
      ['BBB000002', null, null, 0, '0.0 °C', '-0.04', null, null, null],
      [
        'AAA000001',
        '2026-11-26 09:30:15',
        'ALARM Pressure high\nWARN Door open\nINFO old',
        2,
        '21.5 °C',
        '21.46',
        'Acme',
        null,
        'open',
      ],
    ]);
  });

  it('reads a value named __proto__ or absent as missing, not from the prototype', () => {
    const column: TableColumn = { key: '__proto__', dataType: 'number', name: 'P' };
    expect(tableExportCell(makeGroupDataDevice(), column, 'UTC')).toBeNull();
  });

  it('writes through CSV with negative readings kept as numbers and units guarded only when they start with a sign', () => {
    const d = makeGroupDataDevice({ values: { temp: { v: -3.2, ts: T } } });
    const csv = tableToCsv(
      groupTableExport(
        [d],
        [
          { key: 'temp', dataType: 'number', name: 'T', dp: 1 },
          { key: 'temp', dataType: 'number', name: 'T', unit: 'V', dp: 1 },
        ],
        'UTC',
      ),
    );
    expect(csv).toBe("T,T\r\n-3.2,'-3.2 V\r\n");
  });
});

describe('the headline export', () => {
  const period = { startTime: Date.UTC(2026, 10, 19, 10) / 1000, endTime: Date.UTC(2026, 10, 26, 10) / 1000 };

  it('is one row: key, operator, value and previous at the tile decimals, unit, the period', () => {
    const table = headlineExport({
      headline: { key: 'vsys', operator: 'avg', dp: 2, unit: 'V' },
      current: 12.345,
      previous: 12.1,
      period,
      timeZone: 'UTC',
    });
    expect(table.columns).toEqual([...HEADLINE_EXPORT_COLUMNS]);
    expect(table.rows).toEqual([
      ['vsys', 'Average', '12.35', '12.10', 'V', '2026-11-19 10:00:00', '2026-11-26 10:00:00'],
    ]);
  });

  it('leaves a period without a value empty (the tile shows ---) and a blank unit empty', () => {
    const table = headlineExport({
      headline: { key: 'x', operator: 'latest', dp: 0, unit: '' },
      current: null,
      previous: Number.NaN,
      period,
      timeZone: 'UTC',
    });
    expect(table.rows[0]?.slice(0, 5)).toEqual(['x', 'Latest', null, null, null]);
  });
});
