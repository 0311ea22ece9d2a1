/**
 * A view's range (spec 1 sections 5 and 9, DESIGN.md section 5): the presets last 24 hours,
 * 7 days, 30 days, week to date, month to date and custom; the custom picker's shortcuts; weeks
 * start on Monday. A preset is stored as day/week/month with an amount and `rolling`, and is
 * resolved to epoch seconds in the viewer's time zone when the view's data is asked for.
 *
 * `rolling: false` aligns the start to the calendar (day: midnight, week: Monday 00:00, month:
 * the 1st at 00:00) `amount - 1` units back; otherwise (true or absent) the range is the last
 * `amount` units up to now. The end is always now, except for a custom range's own `to`.
 */
/** A stored range, as the view contract keeps it (TimeRangeSchema). */
export interface ViewTimeRange {
  type: 'day' | 'week' | 'month' | 'custom';
  amount?: number | undefined;
  rolling?: boolean | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

/** A resolved range, epoch seconds. */
export interface EpochRange {
  from: number;
  to: number;
}

/** The View Range dialog's presets, in the order it lists them. */
export const VIEW_RANGE_PRESETS = [
  'last24Hours',
  'last7Days',
  'last30Days',
  'weekToDate',
  'monthToDate',
  'custom',
] as const;
export type ViewRangePreset = (typeof VIEW_RANGE_PRESETS)[number];

export const VIEW_RANGE_PRESET_LABELS: Record<ViewRangePreset, string> = {
  last24Hours: 'Last 24 hours',
  last7Days: '7 days',
  last30Days: '30 days',
  weekToDate: 'Week to date',
  monthToDate: 'Month to date',
  custom: 'Custom',
};

/** The stored range of each preset but custom. */
const PRESET_RANGES: Record<Exclude<ViewRangePreset, 'custom'>, ViewTimeRange> = {
  last24Hours: { type: 'day', amount: 1 },
  last7Days: { type: 'day', amount: 7 },
  last30Days: { type: 'day', amount: 30 },
  weekToDate: { type: 'week', amount: 1, rolling: false },
  monthToDate: { type: 'month', amount: 1, rolling: false },
};

/** The custom picker's shortcuts, in the order it lists them. */
export const CUSTOM_RANGE_SHORTCUTS = [
  'previous30Days',
  'previous7Days',
  'previous24Hours',
  'previousWeek',
  'previousMonth',
] as const;
export type CustomRangeShortcut = (typeof CUSTOM_RANGE_SHORTCUTS)[number];

export const CUSTOM_RANGE_SHORTCUT_LABELS: Record<CustomRangeShortcut, string> = {
  previous30Days: 'Previous 30 days',
  previous7Days: 'Previous 7 days',
  previous24Hours: 'Previous 24 hours',
  previousWeek: 'Previous week',
  previousMonth: 'Previous month',
};

const DAY_S = 86_400;
const HOUR_S = 3_600;

/**
 * The stored range of a preset (custom needs from and to: use customTimeRange). For example
 * 'weekToDate' is `{type: 'week', amount: 1, rolling: false}`.
 */
export function presetTimeRange(preset: Exclude<ViewRangePreset, 'custom'>): ViewTimeRange {
  return { ...PRESET_RANGES[preset] };
}

/** A custom stored range from epoch seconds (whole seconds; the caller checks From before To). */
export function customTimeRange(from: number, to: number): ViewTimeRange {
  return { type: 'custom', from: Math.floor(from), to: Math.floor(to) };
}

/**
 * The preset a stored range is: the preset whose stored range it equals (`rolling` absent counts
 * as true for day ranges), 'custom' for a custom range, null for a range no preset names (for
 * example 3 weeks rolling).
 */
export function presetOfTimeRange(range: ViewTimeRange): ViewRangePreset | null {
  if (range.type === 'custom') return 'custom';
  for (const preset of VIEW_RANGE_PRESETS) {
    if (preset === 'custom') continue;
    const p = PRESET_RANGES[preset];
    if (p.type !== range.type || p.amount !== range.amount) continue;
    if ((p.rolling ?? true) === (range.rolling ?? true)) return preset;
  }
  return null;
}

/**
 * A short text for a stored range that is not custom: its preset's label, else 'Last {n} {unit}s'
 * (rolling) or '{Unit} to date, {n} {unit}s' (calendar-aligned). Custom ranges show their dates.
 */
export function timeRangeLabel(range: ViewTimeRange): string {
  const preset = presetOfTimeRange(range);
  if (preset) return VIEW_RANGE_PRESET_LABELS[preset];
  const amount = range.amount ?? 1;
  const unit = `${range.type}${amount === 1 ? '' : 's'}`;
  if (range.rolling !== false) return `Last ${amount} ${unit}`;
  const type = range.type.charAt(0).toUpperCase() + range.type.slice(1);
  return `${type} to date, ${amount} ${unit}`;
}

// ---- Calendar arithmetic in a time zone ------------------------------------------------------

interface WallTime {
  year: number;
  month: number; // 0-11
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock time at `ms` in `timeZone`. */
function wallTimeAt(ms: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: (parts.month ?? 1) - 1,
    day: parts.day ?? 1,
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

function wallAsUtcMs(w: WallTime): number {
  return Date.UTC(w.year, w.month, w.day, w.hour, w.minute, w.second);
}

/**
 * The instant (ms) a wall-clock time names in `timeZone`. Date.UTC normalises overflowing fields
 * (day 0, month -1). A wall time skipped by a clock change answers the instant just after the gap.
 */
function instantOf(w: WallTime, timeZone: string): number {
  const asUtc = wallAsUtcMs(w);
  let guess = asUtc;
  for (let i = 0; i < 3; i++) {
    const offset = wallAsUtcMs(wallTimeAt(guess, timeZone)) - guess;
    const next = asUtc - offset;
    if (next === guess) break;
    guess = next;
  }
  return guess;
}

/** Midnight starting the day of `ms` in `timeZone`, `daysBack` days earlier; ms. */
export function startOfDayIn(ms: number, timeZone: string, daysBack = 0): number {
  const w = wallTimeAt(ms, timeZone);
  return instantOf({ ...w, day: w.day - daysBack, hour: 0, minute: 0, second: 0 }, timeZone);
}

/** Monday 00:00 starting the week of `ms` in `timeZone` (weeks start on Monday), `weeksBack` weeks earlier; ms. */
export function startOfWeekIn(ms: number, timeZone: string, weeksBack = 0): number {
  const w = wallTimeAt(ms, timeZone);
  const weekday = new Date(Date.UTC(w.year, w.month, w.day)).getUTCDay(); // 0 Sunday
  const sinceMonday = (weekday + 6) % 7;
  return instantOf({ ...w, day: w.day - sinceMonday - 7 * weeksBack, hour: 0, minute: 0, second: 0 }, timeZone);
}

/** The 1st at 00:00 starting the month of `ms` in `timeZone`, `monthsBack` months earlier; ms. */
export function startOfMonthIn(ms: number, timeZone: string, monthsBack = 0): number {
  const w = wallTimeAt(ms, timeZone);
  return instantOf({ ...w, month: w.month - monthsBack, day: 1, hour: 0, minute: 0, second: 0 }, timeZone);
}

/** The same wall time `months` calendar months before `ms` (the day clipped to the month's length); ms. */
function monthsBefore(ms: number, timeZone: string, months: number): number {
  const w = wallTimeAt(ms, timeZone);
  const lastDay = new Date(Date.UTC(w.year, w.month - months + 1, 0)).getUTCDate();
  return instantOf({ ...w, month: w.month - months, day: Math.min(w.day, lastDay) }, timeZone);
}

/**
 * A stored range as epoch seconds at `nowMs` in `timeZone` (the viewer's, an IANA name). For
 * example, on Wednesday 2024-05-15 12:00 in Europe/Berlin, week to date is Monday 2024-05-13
 * 00:00 Berlin time to now; 7 days is now - 7 x 24 h to now. A custom range answers its own.
 */
export function resolveTimeRange(range: ViewTimeRange, nowMs: number, timeZone: string): EpochRange {
  const to = Math.floor(nowMs / 1000);
  if (range.type === 'custom') return { from: range.from ?? to - 7 * DAY_S, to: range.to ?? to };
  const amount = Math.max(1, Math.floor(range.amount ?? 1));
  const aligned = range.rolling === false;
  let fromMs: number;
  switch (range.type) {
    case 'day':
      fromMs = aligned ? startOfDayIn(nowMs, timeZone, amount - 1) : nowMs - amount * DAY_S * 1000;
      break;
    case 'week':
      fromMs = aligned ? startOfWeekIn(nowMs, timeZone, amount - 1) : nowMs - amount * 7 * DAY_S * 1000;
      break;
    case 'month':
      fromMs = aligned ? startOfMonthIn(nowMs, timeZone, amount - 1) : monthsBefore(nowMs, timeZone, amount);
      break;
  }
  return { from: Math.floor(fromMs / 1000), to };
}

/**
 * A custom picker shortcut as epoch seconds at `nowMs` in `timeZone`: the previous 30 days, 7 days
 * and 24 hours end now; the previous week is last Monday 00:00 to this Monday 00:00; the previous
 * month is last month's 1st 00:00 to this month's 1st 00:00.
 */
export function shortcutRange(shortcut: CustomRangeShortcut, nowMs: number, timeZone: string): EpochRange {
  const now = Math.floor(nowMs / 1000);
  switch (shortcut) {
    case 'previous30Days':
      return { from: now - 30 * DAY_S, to: now };
    case 'previous7Days':
      return { from: now - 7 * DAY_S, to: now };
    case 'previous24Hours':
      return { from: now - DAY_S, to: now };
    case 'previousWeek':
      return {
        from: Math.floor(startOfWeekIn(nowMs, timeZone, 1) / 1000),
        to: Math.floor(startOfWeekIn(nowMs, timeZone) / 1000),
      };
    case 'previousMonth':
      return {
        from: Math.floor(startOfMonthIn(nowMs, timeZone, 1) / 1000),
        to: Math.floor(startOfMonthIn(nowMs, timeZone) / 1000),
      };
  }
}

/**
 * A resolved range as the group data call takes it: both ends floored to whole hours (the server
 * floors them too and counts the end's hour whole), so a rolling range asks the same call for an
 * hour instead of a new one every second.
 */
export function dataCallRange(range: EpochRange): EpochRange {
  return { from: range.from - (range.from % HOUR_S), to: range.to - (range.to % HOUR_S) };
}
