/**
 * One value of the device config on the Settings page: its label tied to the control, what it
 * takes (type, range, unit), the pending value with the applied one beside it, and its error.
 */
import {
  configFieldHint,
  formatConfigValue,
  type ConfigField as ConfigFieldDescriptor,
  type ConfigFieldValue,
} from '@portal/core';

export interface ConfigFieldProps {
  field: ConfigFieldDescriptor;
  /** The form key (path joined with dots). */
  fieldKey: string;
  /** The value shown: the edit, else the pending value, else the applied one. */
  value: ConfigFieldValue;
  /** The applied value, shown beside a pending one (undefined: the device has none yet). */
  applied: ConfigFieldValue | undefined;
  pending: boolean;
  edited: boolean;
  error: string | undefined;
  /** The raw value when it is not text (a capture value that is not base64 of text). */
  raw: unknown;
  onChange: (key: string, value: ConfigFieldValue) => void;
}

export function ConfigField({
  field,
  fieldKey,
  value,
  applied,
  pending,
  edited,
  error,
  raw,
  onChange,
}: ConfigFieldProps) {
  const id = `cfg-${fieldKey.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const hintId = `${id}-hint`;
  const pendingId = `${id}-pending`;
  const errorId = `${id}-error`;
  const describedBy = [hintId, pending ? pendingId : null, error ? errorId : null].filter(Boolean).join(' ');
  const classes = ['cfg-field', `cfg-field--${field.kind}`];
  if (pending) classes.push('cfg-field--pending');
  if (edited) classes.push('cfg-field--edited');
  if (error) classes.push('cfg-field--invalid');
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
  } as const;

  let control;
  if (field.kind === 'boolean') {
    control = (
      <input
        {...common}
        type="checkbox"
        className="cfg-check"
        checked={value === true}
        onChange={(e) => onChange(fieldKey, e.target.checked)}
      />
    );
  } else if (field.kind === 'select') {
    const options = (field.options ?? []).map(String);
    const current = typeof value === 'string' ? value : '';
    // A value the device has that is not among the choices is still shown as it is.
    const shown = current === '' || options.includes(current) ? options : [current, ...options];
    control = (
      <select
        {...common}
        className={`p-inputtext p-component${error ? ' p-invalid' : ''}`}
        value={current}
        onChange={(e) => onChange(fieldKey, e.target.value)}
      >
        {current === '' && <option value="">Not set</option>}
        {shown.map((o) => (
          <option key={o} value={o}>
            {field.unit ? `${o} ${field.unit}` : o}
          </option>
        ))}
      </select>
    );
  } else if (value === null) {
    // Serial capture bytes that are not text: shown as base64, not editable here.
    control = <input {...common} className="p-inputtext p-component cfg-mono" value={String(raw ?? '')} readOnly />;
  } else {
    const numeric = field.kind === 'number' || field.kind === 'integer';
    control = (
      <input
        {...common}
        type="text"
        className={`p-inputtext p-component${field.kind === 'base64-text' ? ' cfg-mono' : ''}${error ? ' p-invalid' : ''}`}
        value={String(value)}
        inputMode={numeric ? (field.kind === 'integer' ? 'numeric' : 'decimal') : 'text'}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => onChange(fieldKey, e.target.value)}
      />
    );
  }

  return (
    <div className={classes.join(' ')}>
      {field.kind === 'boolean' ? (
        <div className="cfg-check-row">
          {control}
          <label htmlFor={id} className="cfg-label">
            {field.label}
          </label>
          {pending && <PendingTag />}
        </div>
      ) : (
        <>
          <div className="cfg-label-row">
            <label htmlFor={id} className="cfg-label">
              {field.label}
            </label>
            {pending && <PendingTag />}
          </div>
          {control}
        </>
      )}
      {/* A switch shows that it is on or off: its hint is for screen readers only. */}
      <small id={hintId} className={field.kind === 'boolean' ? 'visually-hidden' : 'cfg-hint'}>
        {value === null ? 'Not text: shown as base64, not editable here' : configFieldHint(field)}
      </small>
      {pending && (
        <small id={pendingId} className="cfg-applied">
          Applied on the device: {applied === undefined ? 'not set' : formatConfigValue(field, applied)}
        </small>
      )}
      {error && (
        <small id={errorId} className="cfg-error" role="alert">
          <i className="pi pi-exclamation-circle" aria-hidden="true" /> {error}
        </small>
      )}
    </div>
  );
}

function PendingTag() {
  return <span className="cfg-tag cfg-tag--pending">Pending</span>;
}
