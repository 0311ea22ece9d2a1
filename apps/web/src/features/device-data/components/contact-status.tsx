/**
 * The device's contact line in the header of every device page (UI.md 'Device page': status dot
 * with last contact): its one contact status (core contactStatus) with the time of its newest
 * record, and for staff the device clock's difference.
 */
import { formatDistanceStrict } from 'date-fns';
import {
  CONTACT_STATUS_DISPLAY,
  clockDifferenceText,
  formatDateTimeWithOffset,
  notAfterNow,
  type ContactStatus,
} from '@portal/core';

export interface ContactStatusLineProps {
  /** null while it is not known yet (nothing is shown). */
  status: ContactStatus | null;
  /** Epoch seconds of the device's newest record, or null when it has none. */
  lastTs: number | null;
  nowMs: number;
  /** Staff only: server time minus the device's time at its newest record (settings' timeDifferenceS). */
  timeDifferenceS?: number | undefined;
}

export function ContactStatusLine({ status, lastTs, nowMs, timeDifferenceS }: ContactStatusLineProps) {
  return (
    <>
      {status !== null && (
        <span className={`dp-contact dp-contact--${CONTACT_STATUS_DISPLAY[status].colour}`}>
          <span className="dp-dot" aria-hidden="true" />
          <span>
            <span className="dp-contact-label" role="status">
              {CONTACT_STATUS_DISPLAY[status].label}
            </span>
            {lastTs === null ? (
              ' · no data yet'
            ) : (
              <>
                {' · last data '}
                <time dateTime={new Date(lastTs * 1000).toISOString()} title={formatDateTimeWithOffset(lastTs * 1000)}>
                  {formatDistanceStrict(notAfterNow(lastTs * 1000, nowMs), nowMs, { addSuffix: true })}
                </time>
              </>
            )}
          </span>
        </span>
      )}
      {timeDifferenceS !== undefined && (
        <span className="dp-clock" title="Server time minus the device's time at its newest record (staff only)">
          <i className="pi pi-clock" aria-hidden="true" /> Device clock {clockDifferenceText(timeDifferenceS)}
        </span>
      )}
    </>
  );
}

/** The time of a device's newest value (epoch seconds) among its latest values (DATA_latest's shape), or null. */
export function newestValueTs(latest: Readonly<Record<string, { ts: number }>> | undefined): number | null {
  let newest: number | null = null;
  for (const { ts } of Object.values(latest ?? {}))
    if (Number.isFinite(ts) && (newest === null || ts > newest)) newest = ts;
  return newest;
}
