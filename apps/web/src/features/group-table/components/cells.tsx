/** What the table's cells show: last contact, event messages, counts, metric values, the Device Page link. */
import { Link } from 'react-router';
import { Age } from '@/components/ui/age';
import {
  cellMessages,
  countColourClass,
  eventLabel,
  formatMetricCell,
  isCssColour,
  metricValue,
  thresholdColour,
  type CountColumnKind,
  type GroupDataDevice,
  type TableColumn,
} from '@portal/core';

/** Messages a cell shows (newest first); the rest are in its tooltip. */
export const MESSAGES_SHOWN = 2;

/** Last contact: the age ('3 min ago', never in the future) with the absolute time and zone on hover. */
export function LastContactCell({ ts, nowMs }: { ts: number | null; nowMs: number }) {
  if (ts === null || !Number.isFinite(ts)) return <span className="gt-muted">Never</span>;
  return <Age ts={ts} nowMs={nowMs} />;
}

/** The newest event messages, each marked with its severity colour and label. */
export function MessagesCell({ device }: { device: GroupDataDevice }) {
  if (device.messages.length === 0) return <span className="gt-muted">No Events</span>;
  const shown = cellMessages(device.messages, MESSAGES_SHOWN);
  const more = device.messages.length - shown.length;
  const all = cellMessages(device.messages, device.messages.length)
    .map(({ message }) => `${eventLabel(message)} ${message.msg}`)
    .join('\n');
  return (
    <ul className="gt-messages" title={all}>
      {shown.map(({ message, colourClass }, i) => (
        <li key={`${message.ts}-${i}`} className={`gt-message gt-sev--${colourClass}`}>
          <span className="gt-message__dot" aria-hidden="true" />
          <span className="visually-hidden">{eventLabel(message)}: </span>
          <span className="gt-message__text">{message.msg}</span>
        </li>
      ))}
      {more > 0 ? <li className="gt-message gt-message--more">+{more} more</li> : null}
    </ul>
  );
}

/** A count: coloured by its severity when above 0, plain otherwise. */
export function CountCell({ kind, count }: { kind: CountColumnKind; count: number }) {
  const cls = countColourClass(kind, count);
  return cls === null ? (
    <span className="gt-count">{count}</span>
  ) : (
    <span className={`gt-count gt-count--on gt-sev--${cls}`}>{count}</span>
  );
}

/**
 * A metric's value (core metricValue: the latest, or the column's operator over the view's
 * range) with dp and unit, marked by its threshold colour when one applies, and underlined in
 * the column's trendColor when it has one (docs/decisions.md 'Widget editor': a line, not the
 * text's colour, so any colour keeps the text readable).
 */
export function MetricCell({ device, column }: { device: GroupDataDevice; column: TableColumn }) {
  const v = metricValue(device, column);
  if (v === undefined) return <span className="gt-muted">—</span>;
  const text = formatMetricCell(v, column);
  const colour = thresholdColour(v, column.thresholds);
  const trend = column.trendColor !== undefined && isCssColour(column.trendColor) ? column.trendColor : null;
  return (
    <span
      className={`gt-metric${trend !== null ? ' gt-metric--trend' : ''}`}
      style={trend !== null ? { textDecorationColor: trend } : undefined}
    >
      {colour !== null ? <span className="gt-metric__mark" style={{ background: colour }} aria-hidden="true" /> : null}
      {text}
    </span>
  );
}

/** The device id, with the device's name under it when it has one of its own (the id is what the column filters and sorts). */
export function DeviceIdCell({ device }: { device: GroupDataDevice }) {
  const named = device.name !== '' && device.name !== device.deviceid;
  return (
    <span className="gt-device">
      <span className="gt-device__id">{device.deviceid}</span>
      {named ? <span className="gt-device__name">{device.name}</span> : null}
    </span>
  );
}

/** The row's Device Page link (/data/{deviceid}), reachable from the keyboard. */
export function DevicePageLink({ device }: { device: GroupDataDevice }) {
  const label =
    device.name && device.name !== device.deviceid ? `${device.name} (${device.deviceid})` : device.deviceid;
  return (
    <Link
      to={`/data/${encodeURIComponent(device.deviceid)}`}
      className="gt-link"
      aria-label={`Device Page: ${label}`}
      title="Device Page"
    >
      <i className="pi pi-arrow-up-right" aria-hidden="true" />
    </Link>
  );
}
