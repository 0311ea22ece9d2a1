/**
 * The editor's labelled controls: each one a FormField (label, control, the contract's message
 * beside it) over a PrimeReact control or, for colours, the browser's own picker beside the text.
 * Ids come from the field's path in the settings, so every label names exactly its control.
 */
import { useState } from 'react';
import { AutoComplete } from 'primereact/autocomplete';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';

/** The ids of the field at `path` ('columns.0.dp' gives field-we-columns-0-dp). */
export const idsOf = (path: string) => fieldIds(`we-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`);

interface BaseProps {
  path: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

export function TextField({
  path,
  label,
  error,
  hint,
  value,
  onChange,
  maxLength,
  placeholder,
}: BaseProps & {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  maxLength?: number;
  placeholder?: string;
}) {
  const ids = idsOf(path);
  return (
    <FormField ids={ids} label={label} hint={hint} error={error}>
      <InputText
        id={ids.input}
        value={value ?? ''}
        maxLength={maxLength}
        placeholder={placeholder}
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
 * A number: typed as text (so '3.' and '-' may be on the way to a number), given up as a number,
 * undefined when blank, NaN when it is not a number (the contract then says so beside the field).
 */
export function NumberField({
  path,
  label,
  error,
  hint,
  value,
  onChange,
  blankAs = undefined,
}: BaseProps & {
  value: number | null | undefined;
  onChange: (value: number | undefined | null) => void;
  /** What a blank field gives (null for an automatic axis bound). */
  blankAs?: undefined | null;
}) {
  const ids = idsOf(path);
  const format = (v: number | null | undefined) => (v === undefined || v === null || Number.isNaN(v) ? '' : String(v));
  const parse = (t: string) => (t.trim() === '' ? blankAs : Number(t));
  const [text, setText] = useState(() => format(value));
  const [seen, setSeen] = useState(value);
  // The value changed from outside (a reload): show it, unless the text already means it.
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

export function SelectField<T extends string>({
  path,
  label,
  error,
  hint,
  value,
  options,
  onChange,
  placeholder,
}: BaseProps & {
  value: T | undefined;
  options: readonly { label: string; value: T }[];
  onChange: (value: T | undefined) => void;
  placeholder?: string;
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
        pt={{ select: { 'aria-label': label }, trigger: { 'aria-label': `Show the ${label.toLowerCase()} options` } }}
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
 * A record key: typed, with the group's known keys suggested as it is typed (and all of them
 * from the button beside it); a key no sampled device has can still be typed.
 */
export function KeyField({
  path,
  label,
  error,
  hint,
  value,
  keys,
  onChange,
}: BaseProps & { value: string; keys: readonly string[]; onChange: (value: string) => void }) {
  const ids = idsOf(path);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  return (
    <FormField ids={ids} label={label} hint={hint} error={error}>
      <AutoComplete
        inputId={ids.input}
        className="we-key"
        value={value}
        suggestions={suggestions}
        completeMethod={(e) => {
          const q = e.query.trim().toLowerCase();
          setSuggestions(keys.filter((k) => k.toLowerCase().includes(q)));
        }}
        dropdown
        dropdownAriaLabel={`Show the known keys for ${label.toLowerCase()}`}
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

export function CheckField({
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
    <div className="we-check">
      <Checkbox inputId={ids.input} checked={checked} onChange={(e) => onChange(Boolean(e.checked))} />
      <label htmlFor={ids.input}>{label}</label>
    </div>
  );
}

/** A colour: text (any CSS colour, checked by the contract) and the browser's picker for a hex one. */
export function ColourField({
  path,
  label,
  error,
  value,
  onChange,
}: BaseProps & { value: string | undefined; onChange: (value: string | undefined) => void }) {
  const ids = idsOf(path);
  const hex = value && /^#[0-9a-fA-F]{6}$/.test(value) ? value : '#000000';
  return (
    <FormField ids={ids} label={label} error={error}>
      <div className="we-colour">
        <InputText
          id={ids.input}
          value={value ?? ''}
          placeholder="#1f77b4"
          maxLength={32}
          autoComplete="off"
          invalid={Boolean(error)}
          aria-invalid={Boolean(error) || undefined}
          aria-describedby={describedBy(ids, undefined, error)}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        />
        <input
          type="color"
          className="we-colour__picker"
          value={hex}
          aria-label={`Pick ${label.toLowerCase()}`}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
    </FormField>
  );
}

/** Move up, move down and remove buttons of a list item, each named for it (keyboard reorder). */
export function ItemButtons({
  name,
  index,
  count,
  onMove,
  onRemove,
}: {
  name: string;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onRemove: () => void;
}) {
  return (
    <div className="we-item__buttons">
      <button
        type="button"
        className="p-button p-button-text p-button-sm p-button-icon-only"
        aria-label={`Move ${name} up`}
        disabled={index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        <i className="pi pi-arrow-up" aria-hidden="true" />
      </button>
      <button
        type="button"
        className="p-button p-button-text p-button-sm p-button-icon-only"
        aria-label={`Move ${name} down`}
        disabled={index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        <i className="pi pi-arrow-down" aria-hidden="true" />
      </button>
      <button
        type="button"
        className="p-button p-button-text p-button-sm p-button-icon-only p-button-danger"
        aria-label={`Remove ${name}`}
        onClick={onRemove}
      >
        <i className="pi pi-trash" aria-hidden="true" />
      </button>
    </div>
  );
}

/** `list` with the item at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}
