import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { PASSWORD_MIN_LENGTH } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { confirmError, errorsOf, newPasswordError, useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useCompleteReset } from '../api/complete-reset';
import { AuthCard } from './auth-card';
import { SentPanel } from './sent-panel';

const PASSWORD = fieldIds('reset-password');
const CONFIRM = fieldIds('reset-confirm');
const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters`;

/** Choose a new password with the code of a reset link. */
export function ResetCompleteScreen({ code }: { code: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const touched = useTouched();
  const dialog = useMessageDialog();
  const resetMutation = useCompleteReset();

  const errors = errorsOf({ password: newPasswordError(password), confirm: confirmError(password, confirm) });
  const shown = (field: keyof typeof errors) => (touched.isShown(field) ? errors[field] : undefined);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    touched.touchAll();
    if (Object.keys(errors).length > 0) return;
    resetMutation.mutate(
      { code, body: { password } },
      {
        onSuccess: (answer) => setDone(answer.message),
        onError: (error) => {
          setPassword('');
          setConfirm('');
          touched.reset();
          dialog.showError(error);
        },
      },
    );
  };

  if (done) {
    return (
      <AuthCard title="Password reset">
        <SentPanel message={done} icon="pi pi-check-circle" />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      links={
        <>
          <Link to="/resetpassword">Request a new link</Link>
          <Link to="/login">Back to sign in</Link>
        </>
      }
    >
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormField ids={PASSWORD} label="New password" hint={PASSWORD_HINT} error={shown('password')}>
          <PasswordInput
            id={PASSWORD.input}
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            onBlur={touched.touch('password')}
            invalid={Boolean(shown('password'))}
            aria-describedby={describedBy(PASSWORD, PASSWORD_HINT, shown('password'))}
            autoFocus
          />
        </FormField>
        <FormField ids={CONFIRM} label="Confirm new password" error={shown('confirm')}>
          <PasswordInput
            id={CONFIRM.input}
            autoComplete="new-password"
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
            onBlur={touched.touch('confirm')}
            invalid={Boolean(shown('confirm'))}
            aria-describedby={describedBy(CONFIRM, undefined, shown('confirm'))}
          />
        </FormField>
        <Button type="submit" label="Set new password" className="auth-form__submit" loading={resetMutation.isPending} />
      </form>
    </AuthCard>
  );
}
