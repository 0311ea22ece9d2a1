/**
 * A live trend of one key for a custom page: the window's points as a line (oldest left), scaled
 * to their own range with its top and bottom labelled, and the window's time span beneath. Its
 * text equivalent names the key, the number of readings and the range.
 */
import { formatNumber, formatTimeOfDay } from '@portal/core';

const VIEW_W = 300;
const VIEW_H = 100;
const PAD_Y = 6;

export interface TrendChartProps {
  /** Oldest first. */
  points: readonly { ts: number; v: number }[];
  /** The key's name. */
  name: string;
  units: string;
  dp: number;
}

export function TrendChart({ points, name, units, dp }: TrendChartProps) {
  if (points.length < 2) {
    return (
      <div className="cp-trend cp-trend--empty">
        <p className="muted">The trend starts with the next reading.</p>
      </div>
    );
  }
  const values = points.map((p) => p.v);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high === low) {
    // A flat line sits in the middle of a small band around its value.
    const pad = Math.max(Math.abs(high) * 0.01, 10 ** -dp);
    low -= pad;
    high += pad;
  }
  const first = points[0]!.ts;
  const last = points[points.length - 1]!.ts;
  const xOf = (ts: number, i: number) =>
    last > first ? ((ts - first) / (last - first)) * VIEW_W : (i / (points.length - 1)) * VIEW_W;
  const yOf = (v: number) => PAD_Y + (VIEW_H - 2 * PAD_Y) * (1 - (v - low) / (high - low));
  const line = points.map((p, i) => `${xOf(p.ts, i).toFixed(2)},${yOf(p.v).toFixed(2)}`).join(' ');
  const unit = units ? ` ${units}` : '';
  const lowText = `${formatNumber(low, dp)}${unit}`;
  const highText = `${formatNumber(high, dp)}${unit}`;
  const label = `${name}, last ${points.length} readings, from ${lowText} to ${highText}`;

  return (
    <figure className="cp-trend">
      <div className="cp-trend__scale" aria-hidden="true">
        <span>{highText}</span>
        <span>{lowText}</span>
      </div>
      <div className="cp-trend__area">
        <svg
          className="cp-trend__svg"
          viewBox={`0 0 ${VIEW_W} ${VIEW_H}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={label}
        >
          <line className="cp-trend__grid" x1="0" x2={VIEW_W} y1={VIEW_H / 2} y2={VIEW_H / 2} />
          <polyline className="cp-trend__line" points={line} vectorEffect="non-scaling-stroke" />
        </svg>
      </div>
      <figcaption className="cp-trend__span">
        <time dateTime={new Date(first * 1000).toISOString()}>{formatTimeOfDay(first * 1000, { seconds: true })}</time>
        <span>{points.length} readings</span>
        <time dateTime={new Date(last * 1000).toISOString()}>{formatTimeOfDay(last * 1000, { seconds: true })}</time>
      </figcaption>
    </figure>
  );
}
