/**
 * The Raw Data page's time range: the latest records, the last hour, day or week, or a custom
 * from–to in the viewer's time zone (datetime-local inputs).
 */
import { LabelledDropdown } from '@/components/ui/labelled-dropdown';
import { useId, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { format } from 'date-fns';
import type { RawRange } from '../api/get-raw-data';

export type RangePreset = 'latest' | 'hour' | 'day' | 'week' | 'custom';

const PRESETS: readonly { value: RangePreset; label: string }[] = [
  { value: 'latest', label: 'Latest records' },
  { value: 'hour', label: 'Last hour' },
  { value: 'day', label: 'Last day' },
  { value: 'week', label: 'Last week' },
  { value: 'custom', label: 'Custom range' },
];

const PRESET_SECONDS: Record<Exclude<RangePreset, 'latest' | 'custom'>, number> = {
  hour: 3600,
  day: 86_400,
  week: 7 * 86_400,
};

/** The range of a preset at `nowMs` (custom keeps `custom`). */
export function presetRange(preset: RangePreset, nowMs: number, custom: RawRange): RawRange {
  if (preset === 'latest') return { from: null, to: null };
  if (preset === 'custom') return custom;
  return { from: Math.floor(nowMs / 1000) - PRESET_SECONDS[preset], to: null };
}

const LOCAL_INPUT = "yyyy-MM-dd'T'HH:mm";
const inputValue = (s: number | null) => (s === null ? '' : format(new Date(s * 1000), LOCAL_INPUT));
/** A datetime-local value (the viewer's zone) as epoch seconds, or null when empty or invalid. */
const inputSeconds = (value: string): number | null => {
  const ms = value ? new Date(value).getTime() : Number.NaN;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
};

export interface RangeChooserProps {
  preset: RangePreset;
  custom: RawRange;
  nowMs: number;
  onChange(preset: RangePreset, range: RawRange): void;
}

export function RangeChooser({ preset, custom, nowMs, onChange }: RangeChooserProps) {
  const id = useId();
  const [editing, setEditing] = useState(preset === 'custom');
  const [from, setFrom] = useState(() => inputValue(custom.from ?? Math.floor(nowMs / 1000) - 86_400));
  const [to, setTo] = useState(() => inputValue(custom.to ?? Math.floor(nowMs / 1000)));
  const [error, setError] = useState<string | null>(null);

  const choose = (value: RangePreset) => {
    if (value === 'custom') {
      setEditing(true);
      return;
    }
    setEditing(false);
    setError(null);
    onChange(value, presetRange(value, Date.now(), custom));
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const fromS = inputSeconds(from);
    const toS = inputSeconds(to);
    if (fromS === null || toS === null) {
      setError('Enter both the start and the end.');
      return;
    }
    if (fromS >= toS) {
      setError('The start must be before the end.');
      return;
    }
    setError(null);
    onChange('custom', { from: fromS, to: toS });
  };

  return (
    <div className="rd-range">
      <label className="rd-range__preset">
        <span>Range</span>
        <LabelledDropdown
          value={editing ? 'custom' : preset}
          options={[...PRESETS]}
          onChange={(e) => choose(e.value as RangePreset)}
          className="p-inputtext-sm"
          label="Range"
          triggerLabel="Show the ranges"
        />
      </label>
      {editing && (
        <form className="rd-range__custom" onSubmit={apply} noValidate>
          <label htmlFor={`${id}-from`}>From</label>
          <input
            id={`${id}-from`}
            className="p-inputtext p-component p-inputtext-sm"
            type="datetime-local"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
          <label htmlFor={`${id}-to`}>To</label>
          <input
            id={`${id}-to`}
            className="p-inputtext p-component p-inputtext-sm"
            type="datetime-local"
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
          <Button type="submit" label="Show" className="p-button-sm" />
          {error && (
            <p className="rd-range__error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
