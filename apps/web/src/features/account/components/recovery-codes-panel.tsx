import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { FIELD_MESSAGES, useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useRecoveryCodes } from '../api/get-recovery-codes';
import { useRenewRecoveryCodes } from '../api/renew-recovery-codes';
import type { IssuedRecoveryCodes } from './recovery-codes-dialog';
import * as queryKeys from '@/lib/query-keys';

const RENEW_PASSWORD = fieldIds('recovery-renew-password');

/** 'n recovery codes left', in words a person reads at a glance. */
function codesLeft(n: number): string {
  if (n === 0) return 'No recovery codes left. Make a new set so you can still sign in without your phone.';
  return `${n} recovery code${n === 1 ? '' : 's'} left. Each signs you in once if you cannot get a code.`;
}

/** With MFA on: how many recovery codes are left, and a new set for the password. */
export function RecoveryCodesPanel({
  email,
  onIssued,
}: {
  email: string;
  onIssued: (issued: IssuedRecoveryCodes) => void;
}) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const touched = useTouched();
  const dialog = useMessageDialog();
  const queryClient = useQueryClient();
  const status = useRecoveryCodes();
  const renewMutation = useRenewRecoveryCodes();

  const missing = password === '';
  const passwordError = touched.isShown('password') && missing ? FIELD_MESSAGES.passwordRequired : undefined;

  const close = () => {
    setOpen(false);
    setPassword('');
    touched.reset();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    touched.touchAll();
    if (missing) return;
    renewMutation.mutate(password, {
      onSuccess: (answer) => {
        close();
        void queryClient.invalidateQueries({ queryKey: queryKeys.account.recoveryCodes });
        onIssued({ message: answer.message, codes: answer.recoveryCodes, email });
      },
      onError: (error) => {
        setPassword('');
        dialog.showError(error);
      },
    });
  };

  return (
    <section className="mfa-step" aria-labelledby="recovery-codes-heading">
      <h3 id="recovery-codes-heading">Recovery codes</h3>
      {status.data ? (
        <p className={status.data.remaining === 0 ? 'recovery-codes__none' : 'muted'}>
          {codesLeft(status.data.remaining)}
        </p>
      ) : status.isError ? (
        <p className="muted">Could not load how many recovery codes are left.</p>
      ) : (
        <div className="skeleton skeleton--label" aria-busy="true" role="status" aria-label="Loading recovery codes" />
      )}
      {open ? (
        <form className="mfa-step" onSubmit={onSubmit} noValidate>
          <p className="muted">The codes you have now stop working. Enter your password to confirm.</p>
          <FormField ids={RENEW_PASSWORD} label="Password" error={passwordError}>
            <PasswordInput
              id={RENEW_PASSWORD.input}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              onBlur={touched.touch('password')}
              invalid={Boolean(passwordError)}
              aria-describedby={describedBy(RENEW_PASSWORD, undefined, passwordError)}
              autoFocus
            />
          </FormField>
          <div className="form-actions">
            <Button type="button" label="Cancel" text onClick={close} />
            <Button type="submit" label="Make new codes" loading={renewMutation.isPending} />
          </div>
        </form>
      ) : (
        <div className="form-actions form-actions--start">
          <Button
            type="button"
            label="Make new recovery codes"
            icon="pi pi-refresh"
            outlined
            onClick={() => setOpen(true)}
          />
        </div>
      )}
    </section>
  );
}
