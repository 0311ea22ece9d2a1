import { formatDistanceStrict, type FormatDistanceToken, type Locale } from 'date-fns';
import { enUS } from 'date-fns/locale';
import { formatDateTimeWithOffset, notAfterNow } from '@portal/core';

const SHORT_UNITS: Partial<Record<FormatDistanceToken, string>> = {
  xSeconds: 's',
  xMinutes: 'min',
  xHours: 'h',
  xDays: 'd',
  xMonths: 'mo',
  xYears: 'y',
};

/** English with short units, so ages read '3 min ago' and '2 h ago'. */
const SHORT_EN: Locale = {
  ...enUS,
  formatDistance: (token, count, options) => {
    const text = `${count} ${SHORT_UNITS[token] ?? ''}`.trim();
    if (!options?.addSuffix) return text;
    return options.comparison !== undefined && options.comparison > 0 ? `in ${text}` : `${text} ago`;
  },
};

/** An age such as '3 min ago' at `nowMs` (never in the future), with the absolute time and UTC offset on hover (core's format). */
export function Age({ ts, nowMs, className }: { ts: number; nowMs: number; className?: string }) {
  const date = new Date(ts * 1000);
  return (
    <time className={className} dateTime={date.toISOString()} title={formatDateTimeWithOffset(date)}>
      {formatDistanceStrict(notAfterNow(date.getTime(), nowMs), nowMs, {
        addSuffix: true,
        roundingMethod: 'floor',
        locale: SHORT_EN,
      })}
    </time>
  );
}
