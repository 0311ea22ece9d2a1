import { SPARKLINE_POINTS } from '@portal/core';
import './cards.css';

// viewBox units: the SVG stretches to the card's width (preserveAspectRatio none) and strokes do not scale.
const VIEW_W = 100;
const VIEW_H = 40;
const PAD_X = 1;
const PAD_Y = 5;

/** A small trend line of the latest readings, oldest left, the newest marked with a dot. */
export function Sparkline({ points, label }: { points: readonly { v: number; ts: number }[]; label: string }) {
  const shown = points
    .filter((p) => Number.isFinite(p.v) && Number.isFinite(p.ts))
    .sort((a, b) => a.ts - b.ts)
    .slice(-SPARKLINE_POINTS);
  if (shown.length < 2) return <div className="dd-sparkline" aria-hidden="true" />;

  const values = shown.map((p) => p.v);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const first = shown[0]!.ts;
  const last = shown[shown.length - 1]!.ts;
  // Spaced by time when the points carry distinct times, else evenly.
  const xOf = (ts: number, i: number): number =>
    PAD_X + (VIEW_W - 2 * PAD_X) * (last > first ? (ts - first) / (last - first) : i / (shown.length - 1));
  const yOf = (v: number): number =>
    high > low ? PAD_Y + (VIEW_H - 2 * PAD_Y) * (1 - (v - low) / (high - low)) : VIEW_H / 2;
  const xy = shown.map((p, i) => `${xOf(p.ts, i).toFixed(2)},${yOf(p.v).toFixed(2)}`);
  const end = xy[xy.length - 1]!;

  return (
    <div className="dd-sparkline">
      <svg
        className="dd-sparkline__svg"
        viewBox={`0 0 ${VIEW_W} ${VIEW_H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={label}
      >
        <polyline className="dd-sparkline__line" points={xy.join(' ')} vectorEffect="non-scaling-stroke" />
        {/* A zero-length segment with a round cap, drawn in screen space, is a dot that the stretch cannot squash. */}
        <path className="dd-sparkline__dot" d={`M ${end.replace(',', ' ')} l 0 0`} vectorEffect="non-scaling-stroke" />
      </svg>
    </div>
  );
}
