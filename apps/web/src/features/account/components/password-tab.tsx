import { useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { PASSWORD_MIN_LENGTH } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { NewPasswordFields } from '@/components/ui/new-password-fields';
import { PasswordInput } from '@/components/ui/password-input';
import { FIELD_MESSAGES, errorsOf, newPasswordErrors, useTouched } from '@/lib/form';
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
    ...newPasswordErrors(newPassword, confirm),
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
      <NewPasswordFields
        ids={{ password: NEXT, confirm: CONFIRM }}
        labels={{ password: 'New password', confirm: 'Confirm new password' }}
        hint={PASSWORD_HINT}
        password={newPassword}
        confirm={confirm}
        onPasswordChange={setNewPassword}
        onConfirmChange={setConfirm}
        errors={errors}
        touched={touched}
      />
      <div className="form-actions">
        <Button type="submit" label="Change password" icon="pi pi-lock" loading={passwordMutation.isPending} />
      </div>
    </form>
  );
}
