/**
 * Field-level messages for forms. The rules are the core validators (the server checks the
 * same rules through the core contracts); this file only words them for a field. The Zod
 * schemas themselves are not used in the browser: they would pin Zod into the entry chunk.
 * Also a small touched-state helper, so messages appear after a field is left or the form is
 * submitted, not while the user is still typing.
 */
import { useCallback, useState } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, isValidEmail, isValidPhone, normaliseEmail } from '@portal/core';

export const FIELD_MESSAGES = {
  emailRequired: 'Enter your e-mail address',
  emailInvalid: 'Please enter a valid e-mail address',
  passwordShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordLong: 'Password is too long',
  passwordRequired: 'Enter your password',
  currentPasswordRequired: 'Enter your current password',
  passwordsDiffer: 'The passwords do not match',
  phoneInvalid: 'Enter the number in international format, e.g. +61412345678',
} as const;

/** Message for an e-mail field, or undefined when valid. */
export function emailError(email: string): string | undefined {
  const value = normaliseEmail(email);
  if (value === '') return FIELD_MESSAGES.emailRequired;
  return isValidEmail(value) ? undefined : FIELD_MESSAGES.emailInvalid;
}

/** Message for a new password, or undefined when it is long enough. */
export function newPasswordError(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return FIELD_MESSAGES.passwordShort;
  if (password.length > PASSWORD_MAX_LENGTH) return FIELD_MESSAGES.passwordLong;
  return undefined;
}

/** Message for a confirmation that differs from the new password. */
export function confirmError(password: string, confirm: string): string | undefined {
  return confirm === password ? undefined : FIELD_MESSAGES.passwordsDiffer;
}

/** Messages for a new password and its confirmation, keyed as NewPasswordFields shows them. */
export function newPasswordErrors(password: string, confirm: string) {
  return { password: newPasswordError(password), confirm: confirmError(password, confirm) };
}

/** Message for a phone number ('' allowed when `optional`). */
export function phoneError(phone: string, optional = false): string | undefined {
  const value = phone.trim();
  if (optional && value === '') return undefined;
  return isValidPhone(value) ? undefined : FIELD_MESSAGES.phoneInvalid;
}

/** Drops the fields without a message. */
export function errorsOf<K extends string>(errors: Record<K, string | undefined>): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of Object.keys(errors) as K[]) {
    if (errors[key]) out[key] = errors[key];
  }
  return out;
}

export interface Touched {
  /** True when the field's message may be shown. */
  isShown: (field: string) => boolean;
  /** onBlur handler factory. */
  touch: (field: string) => () => void;
  /** Show every message (on submit). */
  touchAll: () => void;
  reset: () => void;
}

export function useTouched(): Touched {
  const [fields, setFields] = useState<ReadonlySet<string>>(new Set());
  const [all, setAll] = useState(false);
  const touch = useCallback(
    (field: string) => () => setFields((prev) => (prev.has(field) ? prev : new Set(prev).add(field))),
    [],
  );
  return {
    isShown: (field) => all || fields.has(field),
    touch,
    touchAll: () => setAll(true),
    reset: () => {
      setAll(false);
      setFields(new Set());
    },
  };
}
