import { describe, expect, it } from 'vitest';
import {
  MAX_IMPORT_RECORDS,
  RAW_DATA_MESSAGES,
  SERIAL_CAPTURE_KEY,
  addImportResult,
  csvCell,
  csvFieldValue,
  importChunks,
  parseCsv,
  parseImportFile,
  rawDataPage,
  rawRecordJson,
  rawValueText,
  tableToCsv,
  type DataResponse,
} from '../src/index';

const event = (ts: number, msg: string) => ({ name: null, ts, topic: 'engine', msg, lv: 3, severity: null });

describe('rawDataPage: GET /data as table rows', () => {
  const response: Pick<DataResponse, 'data' | 'events'> = {
    data: {
      vsys: [
        { v: 12.1, ts: 300 },
        { v: 12, ts: 200 },
        { v: 11.9, ts: 100 },
      ],
      state: [{ v: 'on', ts: 200 }],
    },
    events: [event(250, 'Ignition on'), event(200, 'Engine started')],
  };

  it('one row per time of a point or an event, newest first, every key sorted', () => {
    const page = rawDataPage(response, 10, null);
    expect(page.rows.map((r) => r.ts)).toEqual([300, 250, 200, 100]);
    expect(page.keys).toEqual(['state', 'vsys']);
    expect({ ...page.rows[2]!.values }).toEqual({ vsys: 12, state: 'on' });
    expect(page.rows[1]!.events.map((e) => e.msg)).toEqual(['Ignition on']);
    expect(page.rows[1]!.values).toEqual({});
    expect(page.olderThan).toBeNull();
  });

  it('a full page of records ends at its oldest record: the next page reads before it', () => {
    const page = rawDataPage(response, 3, null);
    expect(page.rows.map((r) => r.ts)).toEqual([300, 250, 200, 100]);
    expect(page.olderThan).toBe(100);
  });

  it('a full list of events cuts the page at its oldest event, the later of the two', () => {
    const page = rawDataPage(response, 2, null);
    // The records fill the page down to 100, the events only down to 200: the later wins.
    expect(page.rows.map((r) => r.ts)).toEqual([300, 250, 200]);
    expect(page.olderThan).toBe(200);
    expect(page.keys).toEqual(['state', 'vsys']);
  });

  it('leaves out rows at or after `before` (the newer page showed them)', () => {
    const page = rawDataPage(response, 10, 250);
    expect(page.rows.map((r) => r.ts)).toEqual([200, 100]);
    expect(page.olderThan).toBeNull();
  });

  it('stops when a full page makes no progress', () => {
    const page = rawDataPage({ data: { a: [{ v: 1, ts: 50 }] }, events: [] }, 1, 50);
    expect(page.rows).toEqual([]);
    expect(page.olderThan).toBeNull();
  });

  it('an empty answer is an empty page; hostile keys stay plain entries', () => {
    expect(rawDataPage({ data: {}, events: [] }, 100, null)).toEqual({ rows: [], keys: [], olderThan: null });
    const page = rawDataPage(
      { data: JSON.parse('{"__proto__":[{"v":1,"ts":5}]}') as DataResponse['data'], events: [] },
      100,
      null,
    );
    expect(page.keys).toEqual(['__proto__']);
    expect(Object.keys(page.rows[0]!.values)).toEqual(['__proto__']);
  });

  it('the raw JSON of a row: ts, values in key order, events when there are some', () => {
    const page = rawDataPage(response, 10, null);
    expect(JSON.stringify(rawRecordJson(page.rows[2]!))).toBe(
      '{"ts":200,"state":"on","vsys":12,"events":[{"name":null,"ts":200,"topic":"engine","msg":"Engine started","lv":3,"severity":null}]}',
    );
    expect(rawRecordJson(page.rows[0]!)).toEqual({ ts: 300, vsys: 12.1 });
  });
});

describe('rawValueText: serial capture decoded', () => {
  const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');

  it('serial keys: ser, serial, a port number, _parts', () => {
    for (const key of ['serial1', 'ser1', 'serial', 'serial1_rx', 'ser2_data_a'])
      expect(SERIAL_CAPTURE_KEY.test(key)).toBe(true);
    for (const key of ['series', 'sensor1', 'userial1', 'serial1_', '__proto__', ''])
      expect(SERIAL_CAPTURE_KEY.test(key)).toBe(false);
  });

  it('decodes base64 of a serial key, escaping non-printable bytes, keeping the base64', () => {
    const value = b64([...Buffer.from('$GPGGA,1*4F'), 0x0d, 0x0a, 0x00, 0xff]);
    expect(rawValueText('serial1', value)).toEqual({ text: '$GPGGA,1*4F\\x0D\\x0A\\x00\\xFF', base64: value });
  });

  it('decodes a key whose display setting is base64; not one set otherwise', () => {
    const value = b64([...Buffer.from('hi')]);
    expect(rawValueText('frame', value, { displayType: 'base64' })).toEqual({ text: 'hi', base64: value });
    expect(rawValueText('frame', value)).toEqual({ text: value, base64: null });
  });

  it('shows text that is not base64 as escaped text, even under a serial key', () => {
    expect(rawValueText('serial1', 'not base64!')).toEqual({ text: 'not base64!', base64: null });
    expect(rawValueText('serial1', '')).toEqual({ text: '', base64: null });
    expect(rawValueText('note', 'a\tb\\')).toEqual({ text: 'a\\x09b\\\\', base64: null });
  });

  it('numbers, booleans, arrays and missing values', () => {
    expect(rawValueText('vsys', 12.5).text).toBe('12.5');
    expect(rawValueText('ign', false).text).toBe('false');
    expect(rawValueText('arr', [1, 2]).text).toBe('[1,2]');
    expect(rawValueText('x', undefined).text).toBe('');
    expect(rawValueText('x', null).text).toBe('');
  });

  it("a CAN bus's frames as their count (the frames are in the record's JSON)", () => {
    const frame = { id: 0x18feca00, data: '04FF640001' };
    expect(rawValueText('can1', [frame, frame, frame, frame]).text).toBe('4 CAN frames');
    expect(rawValueText('can2', [frame]).text).toBe('1 CAN frame');
    expect(rawValueText('can3', [frame]).text).toBe(JSON.stringify([frame]));
  });
});

describe('parseCsv (RFC 4180)', () => {
  it('reads quoted fields with commas, line breaks and doubled quotes; CRLF or LF; a BOM', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x,1","say ""hi"""\n"two\nlines",\r\n')).toEqual({
      ok: true,
      rows: [
        ['a', 'b'],
        ['x,1', 'say "hi"'],
        ['two\nlines', ''],
      ],
    });
    expect(parseCsv('a,"",c')).toEqual({ ok: true, rows: [['a', '', 'c']] });
    expect(parseCsv('')).toEqual({ ok: true, rows: [] });
  });

  it('refuses malformed text', () => {
    expect(parseCsv('a,"b')).toEqual({ ok: false, message: RAW_DATA_MESSAGES.unterminatedQuote });
    expect(parseCsv('a,b"c')).toEqual({ ok: false, message: 'Line 1: a quote inside an unquoted field.' });
    expect(parseCsv('a\n"b"c')).toEqual({ ok: false, message: 'Line 2: text after a closing quote.' });
  });
});

describe('csvFieldValue: the reverse of csvCell', () => {
  it.each([
    [12, 12],
    [-3.5, -3.5],
    [1e21, 1e21],
    [true, true],
    [false, false],
    ['plain text', 'plain text'],
    ['=SUM(A1)', '=SUM(A1)'],
    ['@cmd', '@cmd'],
    ['-x', '-x'],
    ['a,"b"', 'a,"b"'],
    [
      [1, 2.5],
      [1, 2.5],
    ],
    [undefined, undefined],
  ])('%j round-trips', (value, back) => {
    const text = csvCell(value);
    const row = parseCsv(`${text},end`);
    expect(row.ok).toBe(true);
    if (row.ok) expect(csvFieldValue(row.rows[0]![0]!)).toEqual(back);
  });

  it('text that reads as a number comes back a number; broken JSON stays text', () => {
    expect(csvFieldValue('42')).toBe(42);
    expect(csvFieldValue('[1,')).toBe('[1,');
    expect(csvFieldValue("'plain")).toBe("'plain");
  });
});

describe('parseImportFile', () => {
  const csv = tableToCsv({
    columns: ['ts', 'level', 'state', 'serial1'],
    rows: [
      [1000, 1.5, 'on', null],
      [1060, null, '=1+1', 'aGk='],
    ],
  });

  it('reads the export CSV: ts and one column per key, empty cells left out', () => {
    expect(parseImportFile('X-2026.csv', `\uFEFF${csv}`)).toEqual({
      ok: true,
      format: 'csv',
      records: [
        { ts: 1000, level: 1.5, state: 'on' },
        { ts: 1060, state: '=1+1', serial1: 'aGk=' },
      ],
      keys: ['level', 'serial1', 'state'],
      from: 1000,
      to: 1060,
    });
  });

  it('reads the export JSON ({deviceid, records}) or a bare array', () => {
    const records = [
      { ts: 2000, a: 1, events: [{ msg: 'x' }] },
      { ts: 1990, b: 'y' },
    ];
    expect(parseImportFile('dump.json', JSON.stringify({ deviceid: 'X', records }))).toMatchObject({
      ok: true,
      format: 'json',
      records,
      keys: ['a', 'b', 'events'],
      from: 1990,
      to: 2000,
    });
    expect(parseImportFile('no-extension', JSON.stringify(records))).toMatchObject({ ok: true, format: 'json' });
  });

  it.each([
    ['a.csv', '', RAW_DATA_MESSAGES.noRecords],
    ['a.csv', 'ts,level\r\n', RAW_DATA_MESSAGES.noRecords],
    ['a.csv', 'time,level\r\n1,2\r\n', RAW_DATA_MESSAGES.csvHeader],
    ['a.csv', 'ts,level\r\n1,2,3\r\n', 'Row 2 has 3 fields; the header has 2.'],
    ['a.csv', 'ts,level\r\n1,2\r\nsoon,3\r\n', 'Row 3: ts must be a time in epoch seconds.'],
    ['a.csv', 'ts,level\r\n-5,3\r\n', 'Row 2: ts must be a time in epoch seconds.'],
    ['a.csv', 'ts,bad key\r\n1,2\r\n', "Column 2 ('bad key') is not a key name (a letter, then letters, digits or _)."],
    ['a.csv', 'ts,a,a\r\n1,2,3\r\n', 'Column a appears twice.'],
    ['a.csv', 'ts,a\r\n1,"2\r\n', RAW_DATA_MESSAGES.unterminatedQuote],
    ['a.json', '{"records": [', RAW_DATA_MESSAGES.notJson],
    ['a.json', '{"data": []}', RAW_DATA_MESSAGES.notRecordsJson],
    ['a.json', '"text"', RAW_DATA_MESSAGES.notRecordsJson],
    ['a.json', '{"records": []}', RAW_DATA_MESSAGES.noRecords],
    ['a.json', '{"records": [{"ts": 1}, null]}', 'Record 2 is not a JSON object.'],
    ['a.json', '{"records": [{"ts": "1"}]}', 'Record 1 has no ts (a time in epoch seconds).'],
    ['a.json', '[{"level": 1}]', 'Record 1 has no ts (a time in epoch seconds).'],
  ])('%s %j is malformed: %s', (name, text, message) => {
    expect(parseImportFile(name, text)).toEqual({ ok: false, message });
  });
});

describe('importChunks and addImportResult', () => {
  it('chunks of at most MAX_IMPORT_RECORDS, starting where the last one ended', () => {
    const records = Array.from({ length: MAX_IMPORT_RECORDS * 2 + 1 }, (_, i) => ({ ts: i }));
    const chunks = importChunks(records);
    expect(chunks.map((c) => [c.start, c.records.length])).toEqual([
      [0, MAX_IMPORT_RECORDS],
      [MAX_IMPORT_RECORDS, MAX_IMPORT_RECORDS],
      [MAX_IMPORT_RECORDS * 2, 1],
    ]);
    expect(chunks.flatMap((c) => c.records)).toEqual(records);
    expect(importChunks([])).toEqual([]);
  });

  it('keeps each chunk under the character limit, a record larger than it alone', () => {
    const records = [{ s: 'x'.repeat(40) }, { s: 'y'.repeat(40) }, { s: 'z'.repeat(200) }, { s: 'w' }];
    expect(importChunks(records, 100, 100).map((c) => [c.start, c.records.length])).toEqual([
      [0, 2],
      [2, 1],
      [3, 1],
    ]);
  });

  it('sums the answers, refused records by their index in the file', () => {
    const empty = { imported: 0, duplicates: 0, thinned: 0, refused: [] };
    const one = addImportResult(empty, 0, {
      imported: 3,
      duplicates: 1,
      thinned: 0,
      refused: [{ index: 2, reason: 'a' }],
    });
    const two = addImportResult(one, 5000, {
      imported: 1,
      duplicates: 0,
      thinned: 2,
      refused: [{ index: 0, reason: 'b' }],
    });
    expect(two).toEqual({
      imported: 4,
      duplicates: 1,
      thinned: 2,
      refused: [
        { index: 2, reason: 'a' },
        { index: 5000, reason: 'b' },
      ],
    });
  });
});
