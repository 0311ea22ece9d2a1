import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { fieldIds } from '@/components/ui/form-field';
import { NewPasswordFields } from '@/components/ui/new-password-fields';
import { errorsOf, newPasswordErrors, useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useCompleteReset } from '../api/complete-reset';
import { AuthCard } from './auth-card';
import { SentPanel } from './sent-panel';

const PASSWORD = fieldIds('reset-password');
const CONFIRM = fieldIds('reset-confirm');

/** Choose a new password with the code of a reset link. */
export function ResetCompleteScreen({ code }: { code: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const touched = useTouched();
  const dialog = useMessageDialog();
  const resetMutation = useCompleteReset();

  const errors = errorsOf(newPasswordErrors(password, confirm));

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
        <NewPasswordFields
          ids={{ password: PASSWORD, confirm: CONFIRM }}
          labels={{ password: 'New password', confirm: 'Confirm new password' }}
          password={password}
          confirm={confirm}
          onPasswordChange={setPassword}
          onConfirmChange={setConfirm}
          errors={errors}
          touched={touched}
          autoFocus
        />
        <Button
          type="submit"
          label="Set new password"
          className="auth-form__submit"
          loading={resetMutation.isPending}
        />
      </form>
    </AuthCard>
  );
}
