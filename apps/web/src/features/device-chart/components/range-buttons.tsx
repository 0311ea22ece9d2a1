/**
 * The relative range buttons of a device chart (spec 2 section 9; CHT-19): 10m, 30m, 1h, 6h, 1d,
 * 1w, 1M as one group of toggle buttons, the chosen one pressed; each says its range in full on
 * hover ('Last 6 hours').
 */
import { CHART_RANGE_LABELS, CHART_RANGE_NAMES, type ChartRange } from '@portal/core';

export interface RangeButtonsProps {
  value: ChartRange;
  onChange: (range: ChartRange) => void;
  /** The group's accessible name ('Range of Engine'). */
  label: string;
}

export function RangeButtons({ value, onChange, label }: RangeButtonsProps) {
  return (
    <div className="dc-ranges" role="group" aria-label={label}>
      {CHART_RANGE_NAMES.map((range) => (
        <button
          key={range}
          type="button"
          className="dc-range"
          aria-pressed={range === value}
          title={CHART_RANGE_LABELS[range]}
          onClick={() => onChange(range)}
        >
          {range}
        </button>
      ))}
    </div>
  );
}
