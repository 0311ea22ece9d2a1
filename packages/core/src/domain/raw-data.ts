/**
 * The Raw Data page's rules (issue 14; spec 2 sections 2 and 7; ledger SUB-01): GET /data's
 * answer as rows of records a page at a time, newest first; a value as the table shows it, serial
 * capture text decoded from base64; and a file that GET /export wrote (CSV or JSON) read back as
 * records for POST /import, sent in chunks the server takes.
 */
import { isBase64 } from '../contracts/device-config';
import { MAX_IMPORT_RECORDS, type DataEvent, type DataResponse, type ImportResult } from '../contracts/device-data';
import { RECORD_KEY_PATTERN } from '../contracts/device-record';
import { stringDisplay } from './display-format';
import { resolveDisplay } from './display-resolve';
import { guardFormula } from './table-export';

/** Records a page of the Raw Data table asks for (GET /data dataPoints). */
export const RAW_DATA_PAGE = 100;

/** The page's texts. */
export const RAW_DATA_MESSAGES = {
  /** Spec 2 section 8's card message, for a range without records. */
  noData: 'No Data Available',
  loadFailed: 'Error Loading Data',
  noRecords: 'The file holds no records.',
  notRecordsJson: 'The JSON file holds no records array (as the export writes it: {"records": [...]}).',
  notJson: 'The file is not valid JSON.',
  csvHeader: 'The first column of the CSV file must be ts (as the export writes it).',
  unterminatedQuote: 'The CSV file ends inside a quoted field.',
} as const;

// ---- Rows of GET /data ------------------------------------------------------------------------

/** One record of the table: its time, each key's value at that time, and its events. */
export interface RawRecordRow {
  ts: number;
  /** Values by key (a null-prototype object: any key is a plain entry). */
  values: Record<string, unknown>;
  events: DataEvent[];
}

/** A page of the table: rows newest first, every key they hold (sorted), and where the next older page ends. */
export interface RawDataPage {
  rows: RawRecordRow[];
  keys: string[];
  /**
   * The time the next older page reads up to, exclusive (its GET /data toTime, with rows at this
   * time left out); null when the range holds nothing older.
   */
  olderThan: number | null;
}

/**
 * A GET /data answer (asked with dataPoints `limit` and toTime `before`, inclusive, when given) as
 * table rows: each time of a point or an event is one row, newest first, rows at `before` or
 * later left out (the newer page showed them). When the records or the events filled `limit`,
 * the older part of the answer may be incomplete: rows before the later of the oldest full
 * list's times are left for the next page (olderThan); the server answers every event of its last
 * time, and a device has one record a time, so nothing is skipped or shown twice.
 */
export function rawDataPage(
  response: Pick<DataResponse, 'data' | 'events'>,
  limit: number,
  before: number | null,
): RawDataPage {
  const rows = new Map<number, RawRecordRow>();
  const rowAt = (ts: number): RawRecordRow => {
    let row = rows.get(ts);
    if (!row) {
      row = { ts, values: Object.create(null) as Record<string, unknown>, events: [] };
      rows.set(ts, row);
    }
    return row;
  };
  const recordTimes = new Set<number>();
  const keys = new Set<string>();
  for (const [key, points] of Object.entries(response.data)) {
    if (!Array.isArray(points)) continue;
    for (const point of points) {
      if (!Number.isFinite(point.ts)) continue;
      recordTimes.add(point.ts);
      rowAt(point.ts).values[key] = point.v;
      keys.add(key);
    }
  }
  const events = Array.isArray(response.events) ? response.events.filter((e) => Number.isFinite(e.ts)) : [];
  for (const event of events) rowAt(event.ts).events.push(event);

  let cutoff = -Infinity;
  if (recordTimes.size >= limit) cutoff = Math.max(cutoff, Math.min(...recordTimes));
  if (events.length >= limit) cutoff = Math.max(cutoff, Math.min(...events.map((e) => e.ts)));
  const kept = [...rows.values()]
    .filter((r) => r.ts >= cutoff && (before === null || r.ts < before))
    .sort((a, b) => b.ts - a.ts);
  const shownKeys = new Set<string>();
  for (const row of kept) for (const key of Object.keys(row.values)) shownKeys.add(key);
  const more = cutoff > -Infinity && (before === null || cutoff < before);
  return {
    rows: kept,
    keys: [...keys].filter((k) => shownKeys.has(k)).sort(),
    olderThan: more ? cutoff : null,
  };
}

// ---- A value as the table shows it -------------------------------------------------------------

/**
 * Keys that carry serial capture data as base64 text (the serial1 port's captured frames):
 * ser or serial, an optional port number and optional _parts, e.g. serial1, ser1, serial1_rx.
 */
export const SERIAL_CAPTURE_KEY = /^ser(?:ial)?\d*(?:_[A-Za-z0-9]+)*$/;

/** A value as the Raw Data table shows it. */
export interface RawValueText {
  text: string;
  /** Serial capture decoded from base64: `base64` is the value as received. */
  base64: string | null;
}

/**
 * The text of a value in the Raw Data table. Serial capture text (a key matching
 * SERIAL_CAPTURE_KEY, or whose display setting is base64) that is valid base64 is shown decoded,
 * non-printable characters escaped (\xNN); other text escaped; numbers and booleans as they
 * print; a CAN bus's frames (can1, can2) as their count ('4 CAN frames', the frames in the
 * record's JSON); other arrays and objects as JSON; a missing value as ''.
 */
export function rawValueText(key: string, value: unknown, setting?: unknown): RawValueText {
  if (value === undefined || value === null) return { text: '', base64: null };
  if ((key === 'can1' || key === 'can2') && Array.isArray(value))
    return { text: value.length === 1 ? '1 CAN frame' : `${value.length} CAN frames`, base64: null };
  if (typeof value === 'string') {
    const serial =
      value !== '' &&
      isBase64(value) &&
      (SERIAL_CAPTURE_KEY.test(key) || resolveDisplay(key, setting, value).displayType === 'base64');
    if (serial) return { text: stringDisplay(value, 'base64').text, base64: value };
    return { text: stringDisplay(value, 'escaped').text, base64: null };
  }
  if (typeof value === 'number' || typeof value === 'boolean') return { text: String(value), base64: null };
  return { text: JSON.stringify(value), base64: null };
}

/** A record as its raw JSON: ts, the values in key order, and the events when it has any. */
export function rawRecordJson(row: RawRecordRow): Record<string, unknown> {
  const record: Record<string, unknown> = { ts: row.ts };
  for (const key of Object.keys(row.values).sort()) {
    Object.defineProperty(record, key, { value: row.values[key], enumerable: true, writable: true });
  }
  if (row.events.length > 0) record.events = row.events;
  return record;
}

// ---- Reading an export file back ----------------------------------------------------------------

/** A parse that failed, with the message to show. */
export interface FileProblem {
  ok: false;
  message: string;
}

/**
 * RFC 4180 CSV text as rows of fields (a leading byte order mark dropped; records ended by CRLF
 * or LF; fields in double quotes may hold commas, line breaks and doubled quotes; empty lines
 * skipped). A quote inside an unquoted field, text after a closing quote, or an unterminated
 * quoted field makes the text malformed.
 */
export function parseCsv(text: string): { ok: true; rows: string[][] } | FileProblem {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const endRow = () => {
    row.push(field);
    field = '';
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"' && field === '') {
      // A quoted field, to its closing quote.
      let j = i + 1;
      let value = '';
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return { ok: false, message: RAW_DATA_MESSAGES.unterminatedQuote };
        value += text.slice(j, q);
        if (text[q + 1] === '"') {
          value += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      line += (value.match(/\n/g) ?? []).length;
      const next = text[j];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        return { ok: false, message: `Line ${line}: text after a closing quote.` };
      }
      field = value;
      i = j;
      continue;
    }
    if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      endRow();
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      line += 1;
    } else if (c === '"') {
      return { ok: false, message: `Line ${line}: a quote inside an unquoted field.` };
    } else {
      field += c;
    }
    i += 1;
  }
  if (field !== '' || row.length > 0) endRow();
  return { ok: true, rows };
}

/** Numbers as csvCell prints them. */
const CSV_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A CSV field of the export as a record value, the reverse of csvCell: '' is no value (undefined);
 * a number, true or false is that value; a JSON array is the array; text that csvCell guarded
 * against formulas loses its apostrophe; anything else is the text. (A text that reads as a
 * number or true/false comes back as one: CSV does not say which it was; JSON export keeps it.)
 */
export function csvFieldValue(field: string): unknown {
  if (field === '') return undefined;
  if (CSV_NUMBER.test(field)) {
    const n = Number(field);
    if (Number.isFinite(n)) return n;
  }
  if (field === 'true') return true;
  if (field === 'false') return false;
  if (field.startsWith('[') && field.endsWith(']')) {
    try {
      const parsed: unknown = JSON.parse(field);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // Not JSON: text.
    }
  }
  if (field.startsWith("'") && guardFormula(field.slice(1)) === field) return field.slice(1);
  return field;
}

/** The records of a file to import, with what a preview shows. */
export interface ImportFile {
  ok: true;
  format: 'csv' | 'json';
  records: Record<string, unknown>[];
  /** Every key of the records but ts, sorted. */
  keys: string[];
  /** Oldest and newest ts. */
  from: number;
  to: number;
}

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const validTs = (ts: unknown): ts is number => typeof ts === 'number' && Number.isFinite(ts) && ts > 0;

function summary(format: 'csv' | 'json', records: Record<string, unknown>[]): ImportFile | FileProblem {
  if (records.length === 0) return { ok: false, message: RAW_DATA_MESSAGES.noRecords };
  const keys = new Set<string>();
  let from = Infinity;
  let to = -Infinity;
  for (const record of records) {
    const ts = record.ts as number;
    if (ts < from) from = ts;
    if (ts > to) to = ts;
    for (const key of Object.keys(record)) if (key !== 'ts') keys.add(key);
  }
  return { ok: true, format, records, keys: [...keys].sort(), from, to };
}

function csvRecords(text: string): ImportFile | FileProblem {
  const parsed = parseCsv(text);
  if (!parsed.ok) return parsed;
  const [header, ...rows] = parsed.rows;
  if (!header || header[0]?.trim() !== 'ts') return { ok: false, message: RAW_DATA_MESSAGES.csvHeader };
  const columns = header.map((h) => h.trim());
  const seen = new Set<string>();
  for (const [index, column] of columns.entries()) {
    if (index > 0 && !RECORD_KEY_PATTERN.test(column)) {
      return {
        ok: false,
        message: `Column ${index + 1} ('${column.slice(0, 70)}') is not a key name (a letter, then letters, digits or _).`,
      };
    }
    if (seen.has(column)) return { ok: false, message: `Column ${column} appears twice.` };
    seen.add(column);
  }
  const records: Record<string, unknown>[] = [];
  for (const [index, fields] of rows.entries()) {
    const rowNumber = index + 2;
    if (fields.length !== columns.length) {
      return {
        ok: false,
        message: `Row ${rowNumber} has ${fields.length} fields; the header has ${columns.length}.`,
      };
    }
    const ts = csvFieldValue(fields[0] ?? '');
    if (!validTs(ts)) return { ok: false, message: `Row ${rowNumber}: ts must be a time in epoch seconds.` };
    const record: Record<string, unknown> = { ts };
    for (let c = 1; c < columns.length; c += 1) {
      const value = csvFieldValue(fields[c] ?? '');
      if (value !== undefined) record[columns[c]!] = value;
    }
    records.push(record);
  }
  return summary('csv', records);
}

function jsonRecords(text: string): ImportFile | FileProblem {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return { ok: false, message: RAW_DATA_MESSAGES.notJson };
  }
  const list: unknown = Array.isArray(parsed) ? parsed : isPlainRecord(parsed) ? parsed.records : undefined;
  if (!Array.isArray(list)) return { ok: false, message: RAW_DATA_MESSAGES.notRecordsJson };
  const records: Record<string, unknown>[] = [];
  for (const [index, item] of list.entries()) {
    if (!isPlainRecord(item)) return { ok: false, message: `Record ${index + 1} is not a JSON object.` };
    if (!validTs(item.ts)) return { ok: false, message: `Record ${index + 1} has no ts (a time in epoch seconds).` };
    records.push(item);
  }
  return summary('json', records);
}

/**
 * A file to import, as GET /export wrote it: CSV (a ts column, then one column per key) or JSON
 * ({records: [...]}, or a bare array of records), told apart by the name's extension, else by
 * the first character. Every record must have a ts; a malformed file gives the message to show.
 */
export function parseImportFile(name: string, text: string): ImportFile | FileProblem {
  const lower = name.toLowerCase();
  const start = text.replace(/^\uFEFF/, '').trimStart()[0];
  const json = lower.endsWith('.json') || (!lower.endsWith('.csv') && (start === '{' || start === '['));
  if (text.trim() === '' || text.trim() === '\uFEFF') return { ok: false, message: RAW_DATA_MESSAGES.noRecords };
  return json ? jsonRecords(text) : csvRecords(text);
}

/** Characters of JSON one import call carries at most (the server takes 16 MB bodies; 3 bytes a character at worst). */
export const IMPORT_CHUNK_MAX_CHARS = 4_000_000;

/**
 * The records in consecutive chunks for POST /import: each at most `maxRecords` records and,
 * beyond its first record, at most `maxChars` characters of JSON; `start` is the index of a
 * chunk's first record in the file.
 */
export function importChunks<T>(
  records: readonly T[],
  maxRecords: number = MAX_IMPORT_RECORDS,
  maxChars: number = IMPORT_CHUNK_MAX_CHARS,
): { start: number; records: T[] }[] {
  const chunks: { start: number; records: T[] }[] = [];
  let current: T[] = [];
  let start = 0;
  let chars = 0;
  records.forEach((record, index) => {
    const size = JSON.stringify(record).length + 1;
    if (current.length > 0 && (current.length >= maxRecords || chars + size > maxChars)) {
      chunks.push({ start, records: current });
      current = [];
      chars = 0;
      start = index;
    }
    current.push(record);
    chars += size;
  });
  if (current.length > 0) chunks.push({ start, records: current });
  return chunks;
}

/** What an import in chunks did: the sums of the chunks' answers, refused records by their index in the file. */
export type ImportTotals = Omit<ImportResult, 'deviceid'>;

/** Adds one chunk's answer (its first record at `start` in the file) to the totals so far. */
export function addImportResult(totals: ImportTotals, start: number, result: ImportTotals): ImportTotals {
  return {
    imported: totals.imported + result.imported,
    duplicates: totals.duplicates + result.duplicates,
    thinned: totals.thinned + result.thinned,
    refused: [...totals.refused, ...result.refused.map((r) => ({ index: start + r.index, reason: r.reason }))],
  };
}
