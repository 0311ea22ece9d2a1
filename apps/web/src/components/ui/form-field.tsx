import type { ReactNode } from 'react';

export interface FieldIds {
  input: string;
  hint: string;
  error: string;
}

/** Ids of a field's input, hint and error, for label and aria-describedby wiring. */
export function fieldIds(name: string): FieldIds {
  return { input: `field-${name}`, hint: `field-${name}-hint`, error: `field-${name}-error` };
}

/** The aria-describedby value for a field with an optional hint and error. */
export function describedBy(ids: FieldIds, hint?: ReactNode, error?: string | null): string | undefined {
  const parts = [hint ? ids.hint : null, error ? ids.error : null].filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
}

interface FormFieldProps {
  ids: FieldIds;
  label: string;
  hint?: ReactNode;
  error?: string | null | undefined;
  /** Extra text right of the label (a link, say). */
  aside?: ReactNode;
  children: ReactNode;
}

/** A labelled form field: label above, the control, then a hint and the field's error. */
export function FormField({ ids, label, hint, error, aside, children }: FormFieldProps) {
  return (
    <div className={`form-field${error ? ' form-field--invalid' : ''}`}>
      <div className="form-field__label-row">
        <label htmlFor={ids.input} className="form-field__label">
          {label}
        </label>
        {aside}
      </div>
      {children}
      {hint && !error && (
        <small id={ids.hint} className="form-field__hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={ids.error} className="form-field__error" role="alert">
          <i className="pi pi-exclamation-circle" aria-hidden="true" /> {error}
        </small>
      )}
    </div>
  );
}
