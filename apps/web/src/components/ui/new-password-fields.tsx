import type { ReactNode } from 'react';
import { PASSWORD_MIN_LENGTH } from '@portal/core';
import type { Touched } from '@/lib/form';
import { FormField, describedBy, type FieldIds } from './form-field';
import { PasswordInput } from './password-input';

/** The hint under a new password unless the form words its own. */
export const NEW_PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters`;

type NewPasswordField = 'password' | 'confirm';

interface NewPasswordFieldsProps {
  /** Ids of the new password field and its confirmation. */
  ids: Record<NewPasswordField, FieldIds>;
  /** Label texts, e.g. 'Password' and 'Confirm password'. */
  labels: Record<NewPasswordField, string>;
  hint?: ReactNode;
  password: string;
  confirm: string;
  onPasswordChange: (password: string) => void;
  onConfirmChange: (confirm: string) => void;
  /** The form's messages (see newPasswordErrors); shown once the field is touched. */
  errors: Partial<Record<NewPasswordField, string>>;
  /** The form's touched state; these fields use the keys 'password' and 'confirm'. */
  touched: Touched;
  autoFocus?: boolean;
}

/** A new password and its confirmation, each with its message. */
export function NewPasswordFields({
  ids,
  labels,
  hint = NEW_PASSWORD_HINT,
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
  errors,
  touched,
  autoFocus,
}: NewPasswordFieldsProps) {
  const shown = (field: NewPasswordField) => (touched.isShown(field) ? errors[field] : undefined);
  return (
    <>
      <FormField ids={ids.password} label={labels.password} hint={hint} error={shown('password')}>
        <PasswordInput
          id={ids.password.input}
          autoComplete="new-password"
          value={password}
          onChange={(event) => onPasswordChange(event.target.value)}
          onBlur={touched.touch('password')}
          invalid={Boolean(shown('password'))}
          aria-describedby={describedBy(ids.password, hint, shown('password'))}
          autoFocus={autoFocus}
        />
      </FormField>
      <FormField ids={ids.confirm} label={labels.confirm} error={shown('confirm')}>
        <PasswordInput
          id={ids.confirm.input}
          autoComplete="new-password"
          value={confirm}
          onChange={(event) => onConfirmChange(event.target.value)}
          onBlur={touched.touch('confirm')}
          invalid={Boolean(shown('confirm'))}
          aria-describedby={describedBy(ids.confirm, undefined, shown('confirm'))}
        />
      </FormField>
    </>
  );
}
