import { formatDayAndTime, timeRangeLabel, type TimeRange } from '@portal/core';

/**
 * The View Range button's text: a preset's name ('7 days'), or a custom range's ends in the
 * viewer's time zone ('1 May, 10:00 – 8 May, 10:00', with the year when it is not this year).
 */
export function viewRangeLabel(range: TimeRange, nowMs = Date.now()): string {
  if (range.type !== 'custom' || range.from === undefined || range.to === undefined) return timeRangeLabel(range);
  const year = new Date(nowMs).getFullYear();
  const fmt = (s: number) => {
    const d = new Date(s * 1000);
    return formatDayAndTime(d, { year: d.getFullYear() !== year });
  };
  return `${fmt(range.from)} – ${fmt(range.to)}`;
}
