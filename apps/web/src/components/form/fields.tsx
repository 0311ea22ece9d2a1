/**
 * An editor's labelled controls: each one a FormField (label, control, the field's message beside
 * it) over a PrimeReact control or, for colours, the browser's own picker beside the text. Ids come
 * from the field's path in the settings under the editor's prefix (FieldScope 'we' and path
 * 'columns.0.dp' give field-we-columns-0-dp), so every label names exactly its control; the prefix
 * also names the editor's classes for the key, check and colour controls (we-key, dc-colour, ...).
 */
import { createContext, useContext, useState, type ReactNode } from 'react';
import { AutoComplete } from 'primereact/autocomplete';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';

const FieldPrefix = createContext<string | null>(null);

/** The editor around its fields: the prefix of their ids and classes ('we', 'dc'). */
export function FieldScope({ prefix, children }: { prefix: string; children: ReactNode }) {
  return <FieldPrefix.Provider value={prefix}>{children}</FieldPrefix.Provider>;
}

function usePrefix(): string {
  const prefix = useContext(FieldPrefix);
  if (prefix === null) throw new Error('A form field needs a FieldScope around it');
  return prefix;
}

/** The ids of the field at `path` in the editor around it. */
function useIds(path: string) {
  return fieldIds(`${usePrefix()}-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`);
}

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
  const ids = useIds(path);
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
 * undefined when blank (or null for an automatic axis bound), NaN when it is not a number (its
 * field then says so).
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
  const ids = useIds(path);
  const format = (v: number | null | undefined) => (v === undefined || v === null || Number.isNaN(v) ? '' : String(v));
  const parse = (t: string) => (t.trim() === '' ? blankAs : Number(t));
  const [text, setText] = useState(() => format(value));
  const [seen, setSeen] = useState(value);
  // The value changed from outside (Cancel, a reload): show it, unless the text already means it.
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
  const ids = useIds(path);
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
        // PrimeReact's hidden native select and its trigger need names too, or axe-core flags them;
        // its root keeps no aria-activedescendant (see LabelledDropdown).
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
 * A record key: typed, with the known keys suggested as it is typed (all of them from the button
 * beside it), each shown by its name where `names` has one; a key not among them can still be typed.
 */
export function KeyField({
  path,
  label,
  error,
  hint,
  value,
  keys,
  names,
  keysName = 'the known keys',
  onChange,
}: BaseProps & {
  value: string;
  keys: readonly string[];
  /** A key's name, shown in the list and matched as it is typed. */
  names?: ReadonlyMap<string, string>;
  /** What the list holds, for its button's name ("the device's keys"). */
  keysName?: string;
  onChange: (value: string) => void;
}) {
  const ids = useIds(path);
  const prefix = usePrefix();
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const nameOf = (key: string) => names?.get(key) ?? key;
  return (
    <FormField ids={ids} label={label} hint={hint} error={error}>
      <AutoComplete
        inputId={ids.input}
        className={`${prefix}-key`}
        value={value}
        suggestions={suggestions}
        completeMethod={(e) => {
          const q = e.query.trim().toLowerCase();
          setSuggestions(keys.filter((k) => nameOf(k).toLowerCase().includes(q) || k.toLowerCase().includes(q)));
        }}
        itemTemplate={nameOf}
        dropdown
        dropdownAriaLabel={`Show ${keysName} for ${label.toLowerCase()}`}
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
  const ids = useIds(path);
  return (
    <div className={`${usePrefix()}-check`}>
      <Checkbox inputId={ids.input} checked={checked} onChange={(e) => onChange(Boolean(e.checked))} />
      <label htmlFor={ids.input}>{label}</label>
    </div>
  );
}

let colourCanvas: CanvasRenderingContext2D | null | undefined;

/**
 * A CSS colour text as #rrggbb (what the browser's colour picker takes: 'grey' is #808080), or
 * null when the text is not an opaque colour.
 */
export function colourHex(text: string | undefined): string | null {
  if (!text) return null;
  if (/^#[0-9a-fA-F]{6}$/.test(text)) return text.toLowerCase();
  if (typeof CSS === 'undefined' || !CSS.supports('color', text)) return null;
  colourCanvas ??= document.createElement('canvas').getContext('2d');
  if (!colourCanvas) return null;
  colourCanvas.fillStyle = '#000000';
  colourCanvas.fillStyle = text;
  const out = String(colourCanvas.fillStyle);
  return /^#[0-9a-f]{6}$/.test(out) ? out : null;
}

/**
 * A colour: the text (any CSS colour) and the browser's picker beside it, whose swatch shows the
 * colour that will be used: the field's own, else `automatic` (the colour used while the field is
 * blank, placeholder 'Automatic'); without `automatic` a blank field means no colour (placeholder
 * 'None', the swatch struck through).
 */
export function ColourField({
  path,
  label,
  error,
  value,
  automatic,
  onChange,
}: BaseProps & {
  value: string | undefined;
  /** The colour used while none is set (#rrggbb); absent: a blank field draws no colour. */
  automatic?: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const ids = useIds(path);
  const prefix = usePrefix();
  const used = colourHex(value) ?? colourHex(automatic);
  return (
    <FormField ids={ids} label={label} error={error}>
      <div className={`${prefix}-colour`}>
        <InputText
          id={ids.input}
          value={value ?? ''}
          placeholder={automatic === undefined ? 'None' : 'Automatic'}
          maxLength={32}
          autoComplete="off"
          invalid={Boolean(error)}
          aria-invalid={Boolean(error) || undefined}
          aria-describedby={describedBy(ids, undefined, error)}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        />
        <input
          type="color"
          className={`${prefix}-colour__picker${used === null ? ` ${prefix}-colour__picker--none` : ''}`}
          value={used ?? '#ffffff'}
          data-colour={used ?? 'none'}
          aria-label={`Pick ${label.toLowerCase()}`}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
    </FormField>
  );
}
