/**
 * One data key's card on the Data page (spec 2 sections 2-5): its name, the reading in the way
 * its display settings say (value with units and a trend arrow, trendline, gauge, digital,
 * hours & minutes, raw, escaped, hex, base64), the reading time, the stale rule, and the eye
 * button to its display settings for users who may edit them.
 */
import { formatDistanceStrict } from 'date-fns';
import {
  MISSING_VALUE,
  formatDateTime,
  formatDateTimeWithOffset,
  formatReading,
  gaugeError,
  gaugeState,
  isTrendlineDisplay,
  lastKnownValueTooltip,
  notAfterNow,
  sparklinePoints,
  trendOf,
  type KeyReading,
  type ResolvedDisplay,
} from '@portal/core';
import { Gauge } from './gauge';
import { Sparkline } from './sparkline';
import { EyeLink } from '@/components/ui/eye-link';

export interface ReadingCardProps {
  deviceid: string;
  reading: KeyReading | null;
  display: ResolvedDisplay;
  /** The user may edit display settings: shows the eye button. */
  canEdit: boolean;
  onEdit: (key: string) => void;
  /** The device is not online (core contactStatus): the value shown is the last known one. */
  lastKnown?: boolean;
  nowMs: number;
}

/** Keys starting 'widget' or 'chart' have pages of their own; their eye button goes there. */
function ownPage(deviceid: string, key: string): string | null {
  if (key.startsWith('widget')) return `/widget/${encodeURIComponent(deviceid)}/${encodeURIComponent(key)}`;
  if (key.startsWith('chart')) return `/chart/${encodeURIComponent(deviceid)}/${encodeURIComponent(key)}`;
  return null;
}

export function ReadingCard({
  deviceid,
  reading,
  display,
  canEdit,
  onEdit,
  lastKnown = false,
  nowMs,
}: ReadingCardProps) {
  const shown = reading && (!reading.stale || display.showLastReading) ? reading : null;
  // Muted with 'Last known value from {time}': a key missing from the latest record, or a device not online.
  const stale = shown !== null && (shown.stale || lastKnown);
  const when = shown ? new Date(shown.ts * 1000) : null;
  const absolute = when ? formatDateTime(when) : '';
  const page = ownPage(deviceid, display.key);
  const titleId = `dp-card-${display.key}`;

  return (
    <section className={`card dp-card dp-reading${stale ? ' dp-reading--stale' : ''}`} aria-labelledby={titleId}>
      <header className="dp-card-head">
        <div className="dp-card-names">
          <h3 id={titleId} className="dp-card-title" title={display.key}>
            {display.name}
          </h3>
          {display.name !== display.key && <span className="dp-card-key">{display.key}</span>}
        </div>
        {canEdit &&
          (page ? (
            <EyeLink to={page} label={`Open ${display.name}`} />
          ) : (
            <button
              type="button"
              className="p-button p-button-text p-button-sm p-button-icon-only dp-eye"
              aria-label={`Display settings of ${display.name}`}
              onClick={() => onEdit(display.key)}
            >
              <i className="pi pi-eye" aria-hidden="true" />
            </button>
          ))}
      </header>
      <div className="dp-reading-body" title={stale && when ? lastKnownValueTooltip(absolute) : undefined}>
        {shown ? (
          <ReadingValue reading={shown} display={display} />
        ) : (
          <p className="dp-value dp-value--missing">{MISSING_VALUE.text}</p>
        )}
      </div>
      <footer className="dp-card-foot">
        {when ? (
          <time dateTime={when.toISOString()} title={formatDateTimeWithOffset(when)}>
            {stale ? 'Last known ' : ''}
            {formatDistanceStrict(notAfterNow(when.getTime(), nowMs), nowMs, { addSuffix: true })}
          </time>
        ) : (
          <span>No reading</span>
        )}
      </footer>
    </section>
  );
}

function ReadingValue({ reading, display }: { reading: KeyReading; display: ResolvedDisplay }) {
  const formatted = formatReading(reading.value, display);
  if (display.displayType === 'gauge' && display.gauge) {
    const value = typeof reading.value === 'number' ? reading.value : null;
    return (
      <Gauge
        value={value}
        {...display.gauge}
        state={value === null ? 'normal' : gaugeState(value, display.gauge)}
        text={formatted.text}
        units={formatted.units}
        error={gaugeError(display.gauge)}
      />
    );
  }
  const trendline = isTrendlineDisplay(display.displayType);
  const trend = trendline ? trendOf(reading.value, reading.previous, display.dp) : null;
  return (
    <>
      <p
        className={`dp-value${formatted.error ? ' dp-value--error' : ''}${formatted.text.length > 9 ? ' dp-value--long' : ''}`}
      >
        <span className="dp-value-text">{formatted.text}</span>
        {formatted.units && <span className="dp-value-units">{formatted.units}</span>}
        {trend && (
          <i
            className={`pi ${trend.direction === 'up' ? 'pi-arrow-up' : 'pi-arrow-down'} dp-trend`}
            title={trend.tooltip}
            aria-label={trend.tooltip}
            role="img"
          />
        )}
      </p>
      {trendline && typeof reading.value === 'number' && (
        <Sparkline
          points={sparklinePoints(reading.recent)}
          label={`${display.name}, last ${reading.recent.length} readings`}
        />
      )}
    </>
  );
}
