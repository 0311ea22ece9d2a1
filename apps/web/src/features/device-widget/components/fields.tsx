/**
 * The editor's labelled controls, native inputs in the portal's look: text, number, colour,
 * choice and check. A number or colour that is not one yet is shown with its message and not
 * given up; leaving the field puts back the value in force.
 */
import { useState, type ChangeEvent, type ReactNode } from 'react';
import { COLOUR_MESSAGE, isCssColour } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';

/** The ids of a field of the widget editor. */
export const wcIds = (path: string) => fieldIds(`wc-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`);

interface Base {
  path: string;
  label: string;
  hint?: ReactNode;
  className?: string;
  disabled?: boolean;
}

/**
 * A draft text that follows `value` from outside unless the text already means it; its input's
 * value and handlers give up each text that parses and put back the value in force on leaving one
 * that does not.
 */
function useDraftText<T>(value: T, format: (v: T) => string, parse: (t: string) => T | null, onChange: (v: T) => void) {
  const [text, setText] = useState(() => format(value));
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    setSeen(value);
    if (!Object.is(parse(text), value)) setText(format(value));
  }
  return {
    text,
    input: {
      value: text,
      onChange: (e: ChangeEvent<HTMLInputElement>) => {
        setText(e.target.value);
        const next = parse(e.target.value);
        if (next !== null) {
          setSeen(next);
          onChange(next);
        }
      },
      onBlur: () => {
        if (parse(text) === null) setText(format(value));
      },
    },
  };
}

export function TextInput({
  path,
  label,
  hint,
  className,
  disabled,
  value,
  maxLength,
  list,
  onChange,
}: Base & {
  value: string;
  maxLength?: number;
  /** A datalist's id: suggestions as it is typed. */
  list?: string;
  onChange: (value: string) => void;
}) {
  const ids = wcIds(path);
  return (
    <div className={className}>
      <FormField ids={ids} label={label} hint={hint}>
        <input
          id={ids.input}
          className="p-inputtext p-component"
          value={value}
          maxLength={maxLength}
          list={list}
          autoComplete="off"
          disabled={disabled}
          aria-describedby={describedBy(ids, hint)}
          onChange={(e) => onChange(e.target.value)}
        />
      </FormField>
    </div>
  );
}

const formatNumber = (v: number | undefined) => (v === undefined ? '' : String(v));

export function NumberInput({
  path,
  label,
  hint,
  className,
  disabled,
  value,
  min,
  max,
  optional = false,
  onChange,
}: Base & {
  value: number | undefined;
  min?: number;
  max?: number;
  /** Blank gives undefined (the default); otherwise a number is required. */
  optional?: boolean;
  onChange: (value: number | undefined) => void;
}) {
  const ids = wcIds(path);
  const parse = (t: string): number | undefined | null => {
    if (t.trim() === '') return optional ? undefined : null;
    const n = Number(t);
    if (!Number.isFinite(n)) return null;
    if ((min !== undefined && n < min) || (max !== undefined && n > max)) return null;
    return n;
  };
  const draft = useDraftText<number | undefined>(value, formatNumber, parse, onChange);
  const parsed = parse(draft.text);
  const range =
    min !== undefined && max !== undefined
      ? `a number from ${min} to ${max}`
      : min !== undefined
        ? `a number of at least ${min}`
        : 'a number';
  const error = parsed === null ? `Enter ${range}` : undefined;
  return (
    <div className={className}>
      <FormField ids={ids} label={label} hint={hint} error={error}>
        <input
          id={ids.input}
          className={`p-inputtext p-component${error ? ' p-invalid' : ''}`}
          {...draft.input}
          inputMode="decimal"
          autoComplete="off"
          disabled={disabled}
          aria-invalid={Boolean(error) || undefined}
          aria-describedby={describedBy(ids, hint, error)}
        />
      </FormField>
    </div>
  );
}

let canvasContext: CanvasRenderingContext2D | null | undefined;

/** A CSS colour as #rrggbb for the browser's colour picker (a name too: 'grey' is #808080); black when it cannot say. */
function hexOf(colour: string): string {
  if (/^#[0-9a-fA-F]{6}$/.test(colour)) return colour.toLowerCase();
  canvasContext ??= document.createElement('canvas').getContext('2d');
  if (!canvasContext || !isCssColour(colour)) return '#000000';
  canvasContext.fillStyle = '#000000';
  canvasContext.fillStyle = colour;
  const read = String(canvasContext.fillStyle);
  return /^#[0-9a-f]{6}$/.test(read) ? read : '#000000';
}

export function ColourInput({
  path,
  label,
  hint,
  className,
  disabled,
  value,
  placeholder,
  onChange,
}: Base & {
  value: string | undefined;
  /** The colour used when none is set. */
  placeholder: string;
  onChange: (value: string | undefined) => void;
}) {
  const ids = wcIds(path);
  const parse = (t: string): string | undefined | null => (t.trim() === '' ? undefined : isCssColour(t) ? t : null);
  const draft = useDraftText<string | undefined>(value, (v) => v ?? '', parse, onChange);
  const error = parse(draft.text) === null ? COLOUR_MESSAGE : undefined;
  const hex = hexOf(value ?? placeholder);
  return (
    <div className={className}>
      <FormField ids={ids} label={label} hint={hint} error={error}>
        <div className="wc-colour">
          <input
            id={ids.input}
            className={`p-inputtext p-component${error ? ' p-invalid' : ''}`}
            {...draft.input}
            placeholder={placeholder}
            maxLength={32}
            autoComplete="off"
            disabled={disabled}
            aria-invalid={Boolean(error) || undefined}
            aria-describedby={describedBy(ids, hint, error)}
          />
          <input
            type="color"
            className="wc-colour__picker"
            value={hex}
            disabled={disabled}
            aria-label={`Pick ${label.toLowerCase()}`}
            onChange={(e) => onChange(e.target.value)}
          />
        </div>
      </FormField>
    </div>
  );
}

export function SelectInput<T extends string | number>({
  path,
  label,
  hint,
  className,
  disabled,
  value,
  options,
  onChange,
}: Base & {
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  const ids = wcIds(path);
  return (
    <div className={className}>
      <FormField ids={ids} label={label} hint={hint}>
        <select
          id={ids.input}
          className="p-inputtext p-component wc-select"
          value={String(value)}
          disabled={disabled}
          aria-describedby={describedBy(ids, hint)}
          onChange={(e) => {
            const chosen = options.find((o) => String(o.value) === e.target.value);
            if (chosen) onChange(chosen.value);
          }}
        >
          {options.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
      </FormField>
    </div>
  );
}

export function CheckInput({
  path,
  label,
  checked,
  disabled,
  onChange,
}: {
  path: string;
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  const ids = wcIds(path);
  return (
    <div className="wc-check">
      <input
        id={ids.input}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={ids.input}>{label}</label>
    </div>
  );
}
