/**
 * The chart editor's labelled controls: a FormField (label, control, the field's message) over a
 * PrimeReact control; colours have the browser's picker beside the text. Ids come from the field's
 * path in the chart ('series.0.colour' gives dc-series-0-colour), so every label names its control.
 */
import { useState } from 'react';
import { AutoComplete } from 'primereact/autocomplete';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';

const idsOf = (path: string) => fieldIds(`dc-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`);

interface BaseProps {
  path: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

export function TextInput({
  path,
  label,
  error,
  hint,
  value,
  maxLength,
  onChange,
}: BaseProps & { value: string | undefined; maxLength: number; onChange: (value: string | undefined) => void }) {
  const ids = idsOf(path);
  return (
    <FormField ids={ids} label={label} hint={hint} error={error}>
      <InputText
        id={ids.input}
        value={value ?? ''}
        maxLength={maxLength}
        autoComplete="off"
        invalid={Boolean(error)}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={describedBy(ids, hint, error)}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      />
    </FormField>
  );
}

/**
 * A number typed as text ('3.' and '-' may be on the way to one): blank gives undefined (or null
 * for an automatic axis bound), text that is not a number NaN (its field then says so).
 */
export function NumberInput({
  path,
  label,
  error,
  hint,
  value,
  blankAs = undefined,
  onChange,
}: BaseProps & {
  value: number | null | undefined;
  blankAs?: undefined | null;
  onChange: (value: number | null | undefined) => void;
}) {
  const ids = idsOf(path);
  const format = (v: number | null | undefined) => (v === undefined || v === null || Number.isNaN(v) ? '' : String(v));
  const parse = (t: string) => (t.trim() === '' ? blankAs : Number(t));
  const [text, setText] = useState(() => format(value));
  const [seen, setSeen] = useState(value);
  // Changed from outside (Cancel, a reload): show it, unless the text already means it.
  if (!Object.is(seen, value)) {
    setSeen(value);
    if (!Object.is(parse(text), value)) setText(format(value));
  }
  return (
    <FormField ids={ids} label={label} hint={hint} error={error}>
      <InputText
        id={ids.input}
        value={text}
        inputMode="decimal"
        autoComplete="off"
        invalid={Boolean(error)}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={describedBy(ids, hint, error)}
        onChange={(e) => {
          const next = parse(e.target.value);
          setText(e.target.value);
          setSeen(next);
          onChange(next);
        }}
      />
    </FormField>
  );
}

export function SelectInput<T extends string>({
  path,
  label,
  error,
  hint,
  value,
  options,
  placeholder,
  onChange,
}: BaseProps & {
  value: T | undefined;
  options: readonly { label: string; value: T }[];
  placeholder?: string;
  onChange: (value: T | undefined) => void;
}) {
  const ids = idsOf(path);
  return (
    <FormField ids={ids} label={label} hint={hint} error={error}>
      <Dropdown
        inputId={ids.input}
        value={value ?? null}
        options={[...options]}
        optionLabel="label"
        optionValue="value"
        placeholder={placeholder}
        filter={options.length > 12}
        ariaLabel={label}
        // PrimeReact's hidden native select and its trigger need names too, or axe-core flags them.
        pt={{
          select: { 'aria-label': label },
          trigger: { 'aria-label': `Show the ${label.toLowerCase()} options` },
          root: { 'aria-activedescendant': undefined },
        }}
        invalid={Boolean(error)}
        aria-describedby={describedBy(ids, hint, error)}
        onChange={(e) => {
          const v: unknown = e.value;
          onChange(typeof v === 'string' && v !== '' ? (v as T) : undefined);
        }}
      />
    </FormField>
  );
}

/**
 * A data key: typed, with the device's keys suggested as it is typed (all of them from the button
 * beside it), each with its name; a key the device has not sent yet can still be typed.
 */
export function KeyInput({
  path,
  label,
  error,
  hint,
  value,
  options,
  onChange,
}: BaseProps & {
  value: string;
  options: readonly { label: string; value: string }[];
  onChange: (value: string) => void;
}) {
  const ids = idsOf(path);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const names = new Map(options.map((o) => [o.value, o.label]));
  return (
    <FormField ids={ids} label={label} hint={hint} error={error}>
      <AutoComplete
        inputId={ids.input}
        className="dc-key"
        value={value}
        suggestions={suggestions}
        completeMethod={(e) => {
          const q = e.query.trim().toLowerCase();
          setSuggestions(
            options
              .filter((o) => o.label.toLowerCase().includes(q) || o.value.toLowerCase().includes(q))
              .map((o) => o.value),
          );
        }}
        itemTemplate={(key: string) => names.get(key) ?? key}
        dropdown
        dropdownAriaLabel={`Show the device's keys for ${label.toLowerCase()}`}
        maxLength={64}
        placeholder="Choose or type a key"
        invalid={Boolean(error)}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={describedBy(ids, hint, error)}
        onChange={(e) => onChange(typeof e.value === 'string' ? e.value.trim() : '')}
        // A suggestion chosen is the key, whatever the text was when the list opened.
        onSelect={(e) => onChange(typeof e.value === 'string' ? e.value : '')}
      />
    </FormField>
  );
}

export function CheckInput({
  path,
  label,
  checked,
  onChange,
}: {
  path: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const ids = idsOf(path);
  return (
    <div className="dc-check">
      <Checkbox inputId={ids.input} checked={checked} onChange={(e) => onChange(Boolean(e.checked))} />
      <label htmlFor={ids.input}>{label}</label>
    </div>
  );
}

/** A colour: text (any CSS colour, blank for the automatic one) and the browser's picker for a hex one. */
export function ColourInput({
  path,
  label,
  error,
  value,
  automatic,
  onChange,
}: BaseProps & {
  value: string | undefined;
  /** The colour used while none is set (#rrggbb), shown by the picker. */
  automatic: string;
  onChange: (value: string | undefined) => void;
}) {
  const ids = idsOf(path);
  const hex = value && /^#[0-9a-fA-F]{6}$/.test(value) ? value : automatic;
  return (
    <FormField ids={ids} label={label} error={error}>
      <div className="dc-colour">
        <InputText
          id={ids.input}
          value={value ?? ''}
          placeholder="Automatic"
          maxLength={32}
          autoComplete="off"
          invalid={Boolean(error)}
          aria-invalid={Boolean(error) || undefined}
          aria-describedby={describedBy(ids, undefined, error)}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        />
        <input
          type="color"
          className="dc-colour__picker"
          value={hex}
          aria-label={`Pick ${label.toLowerCase()}`}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
    </FormField>
  );
}
