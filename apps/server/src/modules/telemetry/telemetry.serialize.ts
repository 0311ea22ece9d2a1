/**
 * GET /device/{id}/data writes its answer as JSON text itself: 600 records of 20 keys are 12,000
 * points, and parsing the records, building 12,000 objects, checking them against the response
 * schema and stringifying them (every number formatted again) was most of the call's time. The
 * records come from the database as jsonb text (`data::text`, which PostgreSQL prints in one
 * canonical form) and each value's text is copied from there into the answer. The output is byte
 * for byte what JSON.stringify gives for the same values (see valueJson).
 */

import type { DataEvent } from '@portal/core';

/** One event as GET /data answers it: core's DataEventSchema, whose fields (in its order) dataResponseJson writes. */
export type { DataEvent };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const malformed = (): Error => new Error('Unexpected jsonb text from the database');

/** Index just after the string literal starting at `start` (its opening quote). */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 1;
    else if (c === QUOTE) return i + 1;
  }
  throw malformed();
}

/** Index just after the value starting at `start` inside an object or array. */
function endOfValue(text: string, start: number): number {
  const c = text.charCodeAt(start);
  if (c === QUOTE) return endOfString(text, start);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    for (let i = start; i < text.length;) {
      const d = text.charCodeAt(i);
      if (d === QUOTE) {
        i = endOfString(text, i);
        continue;
      }
      if (d === OPEN_BRACE || d === OPEN_BRACKET) depth += 1;
      else if ((d === CLOSE_BRACE || d === CLOSE_BRACKET) && --depth === 0) return i + 1;
      i += 1;
    }
    throw malformed();
  }
  // A number, true, false or null runs to the next separator.
  let i = start;
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET) return i;
    i += 1;
  }
  throw malformed();
}

/**
 * The value between `start` and `end` of a jsonb text as JSON.stringify prints it. Strings,
 * booleans and null are printed alike by both (jsonb escapes strings exactly as JSON.stringify
 * does). Numbers are PostgreSQL numeric text (plain decimal, never an exponent): up to 15
 * characters hold at most 15 significant digits, which a double keeps exactly, so JavaScript
 * prints the same digits, unless the text has trailing fraction zeros or is below 1e-6 (printed
 * with an exponent); those, longer numbers, arrays and objects go through JSON.stringify.
 */
function valueJson(text: string, start: number, end: number): string {
  const value = text.slice(start, end);
  const c = text.charCodeAt(start);
  if (c === MINUS || (c >= ZERO && c <= NINE)) {
    const plain =
      end - start <= 15 && !(text.charCodeAt(end - 1) === ZERO && value.includes('.')) && !value.includes('0.000000');
    return plain ? value : JSON.stringify(Number(value));
  }
  if (c === OPEN_BRACE || c === OPEN_BRACKET) return JSON.stringify(JSON.parse(value));
  return value;
}

/**
 * The `data` member of GET /data from records newest first (`data` is the record's jsonb text,
 * `source` how it came, `aws_ts` when the portal received it, epoch seconds):
 * `{"key":[{"v":value,"ts":ts,"source":source,"aws_ts":aws_ts},...],...}`, every key but ts and events (only `keys` when given),
 * keys in the order first met, each key's points newest first. A first pass finds where each
 * value is; the second writes each key's points into one string (appending to one string is
 * much cheaper than joining thousands of small ones).
 */
export function recordPointsJson(
  rows: readonly { ts: number; data: string; source: string | null; aws_ts: number }[],
  keys: readonly string[] | null,
): string {
  const index = new Map<string, number>();
  // Keys as they appear in the text (quoted); per key, its points as (row, value start, value end).
  const names: string[] = [];
  const points: number[][] = [];
  for (let r = 0; r < rows.length; r += 1) {
    const text = rows[r]!.data;
    if (text.charCodeAt(0) !== OPEN_BRACE) throw malformed();
    const end = text.length - 1;
    // jsonb text: {"key": value, "key": value}
    for (let i = 1; i < end;) {
      const keyEnd = endOfString(text, i);
      const key = text.slice(i, keyEnd);
      let k = index.get(key);
      if (k === undefined) {
        k = names.length;
        index.set(key, k);
        names.push(key);
        points.push([]);
      }
      const valueEnd = endOfValue(text, keyEnd + 2);
      points[k]!.push(r, keyEnd + 2, valueEnd);
      i = valueEnd + 2;
    }
  }
  const wanted = keys ? new Set(keys.map((k) => JSON.stringify(k))) : null;
  // Each record's points end alike: its time, how it came and when it was received.
  const tails = rows.map(
    (row) =>
      `,"ts":${JSON.stringify(row.ts)},"source":${JSON.stringify(row.source)},"aws_ts":${JSON.stringify(row.aws_ts)}}`,
  );
  let out = '';
  for (let k = 0; k < names.length; k += 1) {
    const key = names[k]!;
    if (key === '"ts"' || key === '"events"' || (wanted !== null && !wanted.has(key))) continue;
    const list = points[k]!;
    out += `${out === '' ? '' : ','}${key}:[`;
    for (let p = 0; p < list.length; p += 3) {
      const r = list[p]!;
      out += `${p === 0 ? '' : ','}{"v":${valueJson(rows[r]!.data, list[p + 1]!, list[p + 2]!)}${tails[r]}`;
    }
    out += ']';
  }
  return `{${out}}`;
}

/** The whole GET /data answer around an already written `data` member, in the response schema's field order. */
export function dataResponseJson(
  deviceid: string,
  dataJson: string,
  events: readonly DataEvent[],
  bucketSeconds: number | undefined,
): string {
  const eventsJson = JSON.stringify(
    events.map((e) => ({ name: e.name, ts: e.ts, topic: e.topic, msg: e.msg, lv: e.lv, severity: e.severity })),
  );
  const bucket = bucketSeconds === undefined ? '' : `,"bucketSeconds":${JSON.stringify(bucketSeconds)}`;
  return `{"deviceid":${JSON.stringify(deviceid)},"data":${dataJson},"events":${eventsJson}${bucket}}`;
}
