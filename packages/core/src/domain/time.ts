/** Rules for showing times. */

/**
 * The moment a relative time ('3 min ago') is measured from: never after now. A time ahead of
 * `nowMs` (a device clock running fast, or a record newer than the page's clock) reads as now, so
 * a relative time never reads 'in 2 seconds'. Not a finite number: returned as it is.
 */
export function notAfterNow(timeMs: number, nowMs: number): number {
  return Number.isFinite(nowMs) && timeMs > nowMs ? nowMs : timeMs;
}

/*
 * One way of writing times (DESIGN.md section 5): in the viewer's locale and time zone, a time
 * shown in full carries its zone, and the UTC offset is on hover. Every page formats times with
 * these; `locale` and `timeZone` are left out in the browser (the viewer's own) and given by tests.
 */

/** Whose way of writing a time: a BCP 47 locale and an IANA time zone; left out, the viewer's own. */
export interface TimeStyle {
  locale?: string | undefined;
  timeZone?: string | undefined;
}

type TimeFormatKind =
  | 'full'
  | 'hover'
  | 'date'
  | 'time'
  | 'time-seconds'
  | 'day'
  | 'month'
  | 'offset'
  | 'day-key'
  | 'day-time'
  | 'day-time-year';

const TIME_FORMAT_OPTIONS: Record<TimeFormatKind, Intl.DateTimeFormatOptions> = {
  // '28 Nov 2026, 07:20:30 CET' (en-GB), 'Nov 28, 2026, 7:20:30 AM EST' (en-US)
  full: { dateStyle: 'medium', timeStyle: 'long' },
  // 'Saturday, 28 November 2026 at 07:20:30'; the offset is added after it
  hover: { dateStyle: 'full', timeStyle: 'medium' },
  // '28 Nov 2026', 'Nov 28, 2026'
  date: { dateStyle: 'medium' },
  // '07:20', '7:20 AM'
  time: { timeStyle: 'short' },
  // '07:20:30', '7:20:30 AM'
  'time-seconds': { timeStyle: 'medium' },
  // '28 Nov', 'Nov 28'
  day: { day: 'numeric', month: 'short' },
  // 'Nov 2026'
  month: { month: 'short', year: 'numeric' },
  // 'GMT+01:00'
  offset: { timeZoneName: 'longOffset' },
  // '28 Nov, 07:20', 'Nov 28, 07:20 AM'
  'day-time': { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' },
  // '28 Nov 2026, 07:20'
  'day-time-year': { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' },
  // '2026-11-28' (with the locale en-CA)
  'day-key': { year: 'numeric', month: '2-digit', day: '2-digit' },
};

const timeFormats = new Map<string, Intl.DateTimeFormat>();

function timeFormat(kind: TimeFormatKind, style: TimeStyle = {}): Intl.DateTimeFormat {
  const key = `${kind}|${style.locale ?? ''}|${style.timeZone ?? ''}`;
  let format = timeFormats.get(key);
  if (!format) {
    const options = { ...TIME_FORMAT_OPTIONS[kind], ...(style.timeZone ? { timeZone: style.timeZone } : {}) };
    format = new Intl.DateTimeFormat(style.locale, options);
    timeFormats.set(key, format);
  }
  return format;
}

/** What a time is given as: a Date, or epoch milliseconds. */
export type TimeValue = Date | number;

const asDate = (at: TimeValue): Date => (typeof at === 'number' ? new Date(at) : at);
const isValidTime = (at: TimeValue): boolean => Number.isFinite(asDate(at).getTime());

/** What a time that is not a time (NaN, out of range) reads as. */
export const NO_TIME_TEXT = '---';

/** A time in full, with its zone: '28 Nov 2026, 07:20:30 CET' (en-GB), 'Nov 28, 2026, 7:20:30 AM EST' (en-US). */
export function formatDateTime(at: TimeValue, style?: TimeStyle): string {
  return isValidTime(at) ? timeFormat('full', style).format(asDate(at)) : NO_TIME_TEXT;
}

/** The UTC offset of the zone at that time: 'GMT+01:00', 'GMT-05:00' ('GMT' alone is written 'GMT+00:00'). */
export function formatUtcOffset(at: TimeValue, style?: TimeStyle): string {
  if (!isValidTime(at)) return NO_TIME_TEXT;
  const part = timeFormat('offset', style)
    .formatToParts(asDate(at))
    .find((p) => p.type === 'timeZoneName')?.value;
  return !part || part === 'GMT' ? 'GMT+00:00' : part;
}

/**
 * The hover text of a time: weekday, long date, time and UTC offset
 * ('Saturday, 28 November 2026 at 07:20:30 (GMT+01:00)').
 */
export function formatDateTimeWithOffset(at: TimeValue, style?: TimeStyle): string {
  if (!isValidTime(at)) return NO_TIME_TEXT;
  return `${timeFormat('hover', style).format(asDate(at))} (${formatUtcOffset(at, style)})`;
}

/** A date alone: '28 Nov 2026', 'Nov 28, 2026'. */
export function formatDate(at: TimeValue, style?: TimeStyle): string {
  return isValidTime(at) ? timeFormat('date', style).format(asDate(at)) : NO_TIME_TEXT;
}

/** A time of day alone (where the date is plain from what is around it): '07:20', '7:20 AM'; with seconds '07:20:30'. */
export function formatTimeOfDay(at: TimeValue, style?: TimeStyle & { seconds?: boolean }): string {
  if (!isValidTime(at)) return NO_TIME_TEXT;
  return timeFormat(style?.seconds ? 'time-seconds' : 'time', style).format(asDate(at));
}

/** A day and a time to the minute, for the ends of a range: '28 Nov, 07:20'; with the year '28 Nov 2026, 07:20'. */
export function formatDayAndTime(at: TimeValue, style?: TimeStyle & { year?: boolean }): string {
  if (!isValidTime(at)) return NO_TIME_TEXT;
  return timeFormat(style?.year ? 'day-time-year' : 'day-time', style).format(asDate(at));
}

/** The calendar day of a time in the zone, as a key ('2026-11-28'), to see where a day changes. */
function dayKey(at: Date, style?: TimeStyle): string {
  // en-CA writes dates as yyyy-mm-dd; the zone is the style's
  return timeFormat('day-key', { locale: 'en-CA', timeZone: style?.timeZone }).format(at);
}

const MINUTE_S = 60;
const DAY_S = 86_400;
/** Ticks this far apart or more are months: label them by month and year. */
const MONTH_TICKS_S = 28 * DAY_S;

/**
 * The labels of a time axis's ticks (epoch seconds, `stepS` apart), in the viewer's locale and
 * zone: ticks under a minute apart show the time with seconds, under a day apart the time
 * ('07:20'), with the day on a second line at the first tick and where the day changes ('07:20\n29
 * Nov'); a day or more apart the day ('28 Nov'), a month or more the month ('Nov 2026').
 */
export function timeAxisLabels(ticksS: readonly number[], stepS: number, style?: TimeStyle): string[] {
  let previousDay: string | null = null;
  return ticksS.map((s) => {
    const at = new Date(s * 1000);
    if (!Number.isFinite(at.getTime())) return '';
    if (stepS >= MONTH_TICKS_S) return timeFormat('month', style).format(at);
    if (stepS >= DAY_S) return timeFormat('day', style).format(at);
    const time = timeFormat(stepS < MINUTE_S ? 'time-seconds' : 'time', style).format(at);
    const day = dayKey(at, style);
    const label = day === previousDay ? time : `${time}\n${timeFormat('day', style).format(at)}`;
    previousDay = day;
    return label;
  });
}
