import { useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { PASSWORD_MIN_LENGTH } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { FIELD_MESSAGES, confirmError, errorsOf, newPasswordError, useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useChangePassword } from '../api/change-password';

const CURRENT = fieldIds('password-current');
const NEXT = fieldIds('password-new');
const CONFIRM = fieldIds('password-confirm');
const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters. You stay signed in here; other sessions end.`;

/** Change the password: current, new, confirm. */
export function PasswordTab() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const touched = useTouched();
  const dialog = useMessageDialog();
  const passwordMutation = useChangePassword();

  const errors = errorsOf({
    currentPassword: currentPassword === '' ? FIELD_MESSAGES.currentPasswordRequired : undefined,
    newPassword: newPasswordError(newPassword),
    confirm: confirmError(newPassword, confirm),
  });
  const shown = (field: keyof typeof errors) => (touched.isShown(field) ? errors[field] : undefined);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    touched.touchAll();
    if (Object.keys(errors).length > 0) return;
    passwordMutation.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: (answer) => {
          setCurrentPassword('');
          setNewPassword('');
          setConfirm('');
          touched.reset();
          dialog.showSuccess(answer);
        },
        onError: (error) => {
          setCurrentPassword('');
          dialog.showError(error);
        },
      },
    );
  };

  return (
    <form className="account-form" onSubmit={onSubmit} noValidate>
      <FormField ids={CURRENT} label="Current password" error={shown('currentPassword')}>
        <PasswordInput
          id={CURRENT.input}
          autoComplete="current-password"
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
          onBlur={touched.touch('currentPassword')}
          invalid={Boolean(shown('currentPassword'))}
          aria-describedby={describedBy(CURRENT, undefined, shown('currentPassword'))}
        />
      </FormField>
      <FormField ids={NEXT} label="New password" hint={PASSWORD_HINT} error={shown('newPassword')}>
        <PasswordInput
          id={NEXT.input}
          autoComplete="new-password"
          value={newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
          onBlur={touched.touch('newPassword')}
          invalid={Boolean(shown('newPassword'))}
          aria-describedby={describedBy(NEXT, PASSWORD_HINT, shown('newPassword'))}
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
      <div className="form-actions">
        <Button type="submit" label="Change password" icon="pi pi-lock" loading={passwordMutation.isPending} />
      </div>
    </form>
  );
}
