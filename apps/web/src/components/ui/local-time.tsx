import { formatDateTime, formatDateTimeWithOffset } from '@portal/core';

/**
 * A time in the viewer's locale and time zone, in full with its zone, and the long date with its
 * UTC offset on hover (DESIGN.md section 5: devices have no zone). The formats are core's
 * (formatDateTime, formatDateTimeWithOffset): every page writes times the same way.
 */

/** The hover text of a time: its date, time and UTC offset ('Saturday, 28 November 2026 at 07:20:30 (GMT+01:00)'). */
export function timeWithOffset(date: Date): string {
  return formatDateTimeWithOffset(date);
}

/** `ts` (epoch seconds) as text in the viewer's zone, with the zone, for names and labels. */
export function localTimeText(ts: number): string {
  return formatDateTime(ts * 1000);
}

/** `ts` (epoch seconds, or a Date) shown in full (date, time, zone) in the viewer's locale and zone. */
export function LocalTime({ ts, className }: { ts: number | Date; className?: string }) {
  const date = typeof ts === 'number' ? new Date(ts * 1000) : ts;
  if (Number.isNaN(date.getTime())) return <span className={className}>---</span>;
  return (
    <time className={className} dateTime={date.toISOString()} title={timeWithOffset(date)}>
      {formatDateTime(date)}
    </time>
  );
}
