/**
 * The inputs of a column's filter menu (spec 1 section 5): text for text columns, a number for
 * the others, a date and time for Last Contact, and two bounds for 'between'. Values are kept as
 * the table applies them: text, a number, or [low, high] for between (Last Contact in epoch s).
 */
import type { KeyboardEvent } from 'react';
import type { ColumnFilterElementTemplateOptions } from 'primereact/column';
import { InputText } from 'primereact/inputtext';

export type FilterInputKind = 'text' | 'number' | 'time';

type Bound = number | null;

function boundsOf(value: unknown): [Bound, Bound] {
  if (Array.isArray(value)) return [asBound(value[0]), asBound(value[1])];
  return [asBound(value), null];
}

function asBound(v: unknown): Bound {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** epoch s -> the value of a datetime-local input (local time). */
function toLocalInput(s: Bound): string {
  if (s === null) return '';
  const d = new Date(s * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function fromInput(kind: FilterInputKind, text: string): Bound {
  if (text.trim() === '') return null;
  if (kind === 'time') {
    const ms = new Date(text).getTime();
    return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
  }
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function BoundInput({
  kind,
  value,
  label,
  onChange,
  onEnter,
}: {
  kind: Exclude<FilterInputKind, 'text'>;
  value: Bound;
  label: string;
  onChange: (v: Bound) => void;
  onEnter: () => void;
}) {
  return (
    <InputText
      type={kind === 'time' ? 'datetime-local' : 'number'}
      inputMode={kind === 'number' ? 'decimal' : undefined}
      step="any"
      className="gt-filter__input"
      aria-label={label}
      placeholder={label}
      defaultValue={kind === 'time' ? toLocalInput(value) : value === null ? '' : String(value)}
      onChange={(e) => onChange(fromInput(kind, e.target.value))}
      onKeyDown={(e: KeyboardEvent) => {
        if (e.key === 'Enter') onEnter();
      }}
    />
  );
}

/** The filter menu's input for one column, given PrimeReact's filter element options. */
export function ColumnFilterInput({
  kind,
  header,
  options,
}: {
  kind: FilterInputKind;
  header: string;
  options: ColumnFilterElementTemplateOptions;
}) {
  const matchMode = (options.filterModel as { matchMode?: string } | undefined)?.matchMode;
  if (kind === 'text') {
    const value = typeof options.value === 'string' ? options.value : '';
    return (
      <InputText
        className="gt-filter__input"
        aria-label={`Filter ${header}`}
        placeholder="Text"
        value={value}
        onChange={(e) => options.filterCallback(e.target.value, options.index)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') options.filterApplyCallback(e.currentTarget.value, options.index);
        }}
      />
    );
  }
  const [low, high] = boundsOf(options.value);
  if (matchMode === 'between') {
    let bounds: [Bound, Bound] = [low, high];
    const set = (i: 0 | 1, v: Bound) => {
      bounds = i === 0 ? [v, bounds[1]] : [bounds[0], v];
      options.filterCallback(bounds, options.index);
    };
    return (
      <div className="gt-filter__between" key="between">
        <BoundInput
          kind={kind}
          value={low}
          label={`${header} from`}
          onChange={(v) => set(0, v)}
          onEnter={() => options.filterApplyCallback(bounds, options.index)}
        />
        <span className="gt-filter__and">and</span>
        <BoundInput
          kind={kind}
          value={high}
          label={`${header} to`}
          onChange={(v) => set(1, v)}
          onEnter={() => options.filterApplyCallback(bounds, options.index)}
        />
      </div>
    );
  }
  let current: Bound = low;
  return (
    <BoundInput
      key="single"
      kind={kind}
      value={low}
      label={`Filter ${header}`}
      onChange={(v) => {
        current = v;
        options.filterCallback(v, options.index);
      }}
      onEnter={() => options.filterApplyCallback(current, options.index)}
    />
  );
}
