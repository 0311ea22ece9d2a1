import type { GaugeLimits, GaugeState } from '@portal/core';
import './cards.css';

export interface GaugeProps extends GaugeLimits {
  value: number | null;
  state: GaugeState;
  text: string;
  units: string;
  error?: string | null;
}

// Geometry in viewBox units: a 240 degree arc open at the bottom, the limit bands on a thin ring outside it.
const VIEW_W = 200;
const VIEW_H = 172;
const CX = 100;
const CY = 98;
const R_TRACK = 76;
const TRACK_W = 16;
const R_BAND = R_TRACK + TRACK_W / 2 + 5;
const BAND_W = 5;
const SWEEP_DEG = 240;
const START_DEG = -SWEEP_DEG / 2;
const VALUE_FONT = 34;
/** Width the value text may take inside the arc. */
const VALUE_MAX_W = 2 * (R_TRACK - TRACK_W) - 8;

const LIMIT_FORMAT = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** A point on a circle at `deg` degrees clockwise from 12 o'clock. */
function polar(r: number, deg: number): { x: number; y: number } {
  const rad = (deg * Math.PI) / 180;
  return { x: CX + r * Math.sin(rad), y: CY - r * Math.cos(rad) };
}

/** The path of the arc between fractions `from` and `to` (0 = min end, 1 = max end) of the sweep. */
function arcPath(r: number, from: number, to: number): string {
  const a0 = START_DEG + SWEEP_DEG * from;
  const a1 = START_DEG + SWEEP_DEG * to;
  const p0 = polar(r, a0);
  const p1 = polar(r, a1);
  const large = a1 - a0 > 180 ? 1 : 0;
  return `M ${p0.x.toFixed(2)} ${p0.y.toFixed(2)} A ${r} ${r} 0 ${large} 1 ${p1.x.toFixed(2)} ${p1.y.toFixed(2)}`;
}

interface Band {
  from: number;
  to: number;
  level: 'alarm' | 'warning';
}

/**
 * The alarm and warning bands as fractions of the range: alarm below alarmLow and above alarmHigh,
 * warning between each alarm limit and its warn limit. Limits outside the range are clamped to it;
 * a band that is empty or inverted is left out.
 */
function limitBands(p: GaugeProps, fraction: (v: number) => number): Band[] {
  const lowAlarm = fraction(p.alarmLow);
  const lowWarn = Math.max(fraction(p.warnLow), lowAlarm);
  const highAlarm = fraction(p.alarmHigh);
  const highWarn = Math.min(fraction(p.warnHigh), highAlarm);
  const bands: Band[] = [
    { from: 0, to: lowAlarm, level: 'alarm' },
    { from: lowAlarm, to: lowWarn, level: 'warning' },
    { from: highWarn, to: highAlarm, level: 'warning' },
    { from: highAlarm, to: 1, level: 'alarm' },
  ];
  return bands.filter((b) => Number.isFinite(b.from) && Number.isFinite(b.to) && b.to > b.from);
}

/** An arc gauge: limit bands, the value's fill in the state colour, the reading in the middle (UI.md, gauges). */
export function Gauge(props: GaugeProps) {
  const { value, min, max, state, text, units, error } = props;

  if (error) {
    return (
      <div className="dd-gauge dd-gauge--error">
        <p className="dd-card-message dd-card-message--error">{error}</p>
      </div>
    );
  }

  const span = max - min;
  const fraction = (v: number): number =>
    Number.isFinite(v) && Number.isFinite(span) && span > 0 ? Math.min(1, Math.max(0, (v - min) / span)) : Number.NaN;
  const bands = limitBands(props, fraction);
  const valueFraction = value === null ? Number.NaN : fraction(value);
  const needle = Number.isFinite(valueFraction) ? START_DEG + SWEEP_DEG * valueFraction : null;
  const ends = [polar(R_TRACK, START_DEG), polar(R_TRACK, START_DEG + SWEEP_DEG)] as const;
  const labelY = ends[0].y + TRACK_W / 2 + 18;
  // Long readings shrink rather than being cut (UI.md: never truncate a number).
  const valueFont = Math.min(VALUE_FONT, VALUE_MAX_W / (0.6 * Math.max(1, text.length)));
  const label = `${text} ${units}`.trim();

  return (
    <div className="dd-gauge">
      <svg
        className={`dd-gauge__svg dd-gauge__svg--${state}`}
        viewBox={`0 0 ${VIEW_W} ${VIEW_H}`}
        role="img"
        aria-label={label}
      >
        <path className="dd-gauge__track" d={arcPath(R_TRACK, 0, 1)} strokeWidth={TRACK_W} />
        {bands.map((b) => (
          <path
            key={`${b.level}-${b.from}`}
            className={`dd-gauge__band dd-gauge__band--${b.level}`}
            d={arcPath(R_BAND, b.from, b.to)}
            strokeWidth={BAND_W}
          />
        ))}
        {needle !== null && valueFraction > 0 ? (
          <path className="dd-gauge__fill" d={arcPath(R_TRACK, 0, valueFraction)} strokeWidth={TRACK_W} />
        ) : null}
        {needle !== null ? (
          <line
            className="dd-gauge__needle"
            x1={polar(R_TRACK - TRACK_W / 2 - 3, needle).x}
            y1={polar(R_TRACK - TRACK_W / 2 - 3, needle).y}
            x2={polar(R_BAND + BAND_W / 2, needle).x}
            y2={polar(R_BAND + BAND_W / 2, needle).y}
          />
        ) : null}
        <text className="dd-gauge__value" x={CX} y={CY + valueFont * 0.2} fontSize={valueFont} textAnchor="middle">
          {text}
        </text>
        {units ? (
          <text className="dd-gauge__units" x={CX} y={CY + valueFont * 0.2 + 22} textAnchor="middle">
            {units}
          </text>
        ) : null}
        <text className="dd-gauge__limit" x={ends[0].x} y={labelY} textAnchor="middle">
          {LIMIT_FORMAT.format(min)}
        </text>
        <text className="dd-gauge__limit" x={ends[1].x} y={labelY} textAnchor="middle">
          {LIMIT_FORMAT.format(max)}
        </text>
      </svg>
    </div>
  );
}
