/**
 * A time in the viewer's time zone, with the full date and its UTC offset on hover (DESIGN.md
 * section 5: devices have no zone). One place for the formats every table of times uses.
 */
const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

const WHEN_WITH_OFFSET = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  weekday: 'long',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'longOffset',
});

/** The hover text of a time: its date, time and UTC offset ('Friday, 27 November 2026, 04:15:46 GMT+01:00'). */
export function timeWithOffset(date: Date): string {
  return WHEN_WITH_OFFSET.format(date);
}

/** `ts` (epoch seconds) as text in the viewer's zone, for names and labels. */
export function localTimeText(ts: number): string {
  return WHEN.format(new Date(ts * 1000));
}

/** `ts` (epoch seconds, or a Date) shown as a medium date and time in the viewer's zone. */
export function LocalTime({ ts, className }: { ts: number | Date; className?: string }) {
  const date = typeof ts === 'number' ? new Date(ts * 1000) : ts;
  if (Number.isNaN(date.getTime())) return <span className={className}>---</span>;
  return (
    <time className={className} dateTime={date.toISOString()} title={timeWithOffset(date)}>
      {WHEN.format(date)}
    </time>
  );
}
