/**
 * The staff device page's server-log card (STAFF-12): the device's newest server-log lines, in a
 * list that scrolls within its card.
 */
import type { StaffDeviceResponse } from '@portal/core';
import { LocalTime } from '@/components/ui/local-time';

/** The newest server-log lines of the device. */
export function StaffDeviceLogCard({ data }: { data: StaffDeviceResponse }) {
  return (
    <section className="card staff-card" aria-labelledby="staff-log">
      <h2 id="staff-log" className="card__title">
        Server log <span className="staff-muted staff-small">newest {data.serverLog.length} lines</span>
      </h2>
      {data.serverLog.length === 0 ? (
        <p className="staff-muted">No server log lines.</p>
      ) : (
        // The log scrolls within its card: it takes keyboard focus to scroll it.
        <ol className="staff-log" tabIndex={0} aria-labelledby="staff-log">
          {data.serverLog.map((line) => (
            <li key={line.id}>
              <LocalTime ts={line.ts} className="staff-log__time" />
              <span className="staff-log__kind">{line.kind}</span>
              <span className="staff-log__message">{line.message}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
