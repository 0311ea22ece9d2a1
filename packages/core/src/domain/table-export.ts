/**
 * What a widget exports (issue 13, docs/decisions.md 'Widget export'): a table of headers and
 * rows, written as CSV (RFC 4180) by the web and by the server's data export alike, and the file
 * name that carries the group, the widget and the view's range.
 */
import type { EpochRange } from './view-range';

/** One exported cell: text, a number, or null for an empty cell. */
export type ExportCell = string | number | null;

/** A table as a widget exports it: the column headers and the rows, cells in the columns' order. */
export interface ExportTable {
  columns: string[];
  rows: ExportCell[][];
}

/** A number written as text: the guard leaves it alone ('-3.5' is a value, not a formula). */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** First characters that make a spreadsheet read a cell as a formula (OWASP 'CSV injection'). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Text a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return)
 * with a leading apostrophe, so it shows as text; a plain number written as text ('-3.5', '+2')
 * is left as it is, and so is every other text.
 */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * One CSV field (RFC 4180): empty for null, undefined and non-finite numbers; numbers and
 * booleans as they print; other values as text (objects as JSON) through `guardFormula`, in
 * double quotes (inner quotes doubled) when it holds a quote, a comma, CR or LF.
 */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  const text = guardFormula(typeof value === 'string' ? value : JSON.stringify(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record: the fields joined by commas, ended by CRLF (RFC 4180). */
export function csvRecord(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** The table as CSV text: the header record, then one record per row, each ended by CRLF. */
export function tableToCsv(table: ExportTable): string {
  return [table.columns, ...table.rows].map(csvRecord).join('');
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>();
function dateFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = dateFormatters.get(timeZone);
  if (!f) {
    // en-CA writes dates as YYYY-MM-DD.
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormatters.set(timeZone, f);
  }
  return f;
}

const timeFormatters = new Map<string, Intl.DateTimeFormat>();
function timeFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = timeFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    timeFormatters.set(timeZone, f);
  }
  return f;
}

/** The date of epoch second `s` in `timeZone`, 'YYYY-MM-DD'. */
export function exportDate(s: number, timeZone: string): string {
  return dateFormatter(timeZone).format(new Date(s * 1000));
}

/** The time of epoch second `s` in `timeZone`, 'YYYY-MM-DD HH:mm:ss' (24-hour clock). */
export function exportDateTime(s: number, timeZone: string): string {
  const at = new Date(s * 1000);
  return `${dateFormatter(timeZone).format(at)} ${timeFormatter(timeZone).format(at)}`;
}

/**
 * A range's dates in `timeZone`, '2026-11-19 to 2026-11-26': the day of `from` and the day of
 * the range's last second, so a range ending at midnight (the previous week: Monday to Monday
 * 00:00) ends on the day before.
 */
export function exportRangeText(range: EpochRange, timeZone: string): string {
  const last = range.to > range.from ? range.to - 1 : range.to;
  return `${exportDate(range.from, timeZone)} to ${exportDate(last, timeZone)}`;
}

/**
 * Text made safe for a file name on Windows, macOS and Linux: each of \ / : * ? " < > | and
 * control characters becomes '_', runs of white space one space, without leading or trailing
 * spaces and dots; 'export' when nothing is left.
 */
export function fileNamePart(text: string): string {
  const cleaned = text
    // eslint-disable-next-line no-control-regex -- control characters are what this removes.
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  return cleaned === '' ? 'export' : cleaned;
}

/**
 * The file name of a widget's export: '{group name} - {widget title} - {from} to {to}.{ext}',
 * the dates those of the view's range in the viewer's time zone (exportRangeText), each part
 * made safe by fileNamePart. For example 'North Yard - Devices - 2026-11-19 to 2026-11-26.csv'.
 */
export function exportFileName(
  parts: { groupName: string; title: string; range: EpochRange; timeZone: string },
  extension: string,
): string {
  const range = exportRangeText(parts.range, parts.timeZone);
  return `${fileNamePart(parts.groupName)} - ${fileNamePart(parts.title)} - ${range}.${extension}`;
}
