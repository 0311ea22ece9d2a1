import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { normaliseEmail } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { emailError as emailMessage, useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useRequestReset } from '../api/request-reset';
import { AuthCard } from './auth-card';
import { SentPanel } from './sent-panel';

const EMAIL = fieldIds('reset-email');

/** Request a reset link by e-mail; the server's message follows. */
export function ResetRequestScreen() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const touched = useTouched();
  const dialog = useMessageDialog();
  const resetMutation = useRequestReset();

  const invalid = emailMessage(email);
  const emailError = touched.isShown('email') ? invalid : undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    touched.touchAll();
    if (invalid) return;
    resetMutation.mutate(
      { email: normaliseEmail(email) },
      {
        onSuccess: (answer) => setSent(answer.message),
        onError: (error) => dialog.showError(error),
      },
    );
  };

  const links = (
    <Link to="/login">
      <i className="pi pi-arrow-left" aria-hidden="true" /> Back to sign in
    </Link>
  );

  if (sent) {
    return (
      <AuthCard title="Check your e-mail" links={links}>
        <SentPanel message={sent} detail="The link in it is valid for one hour." signInLink={false} />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset your password"
      subtitle="Enter the e-mail address of your account and we will send you a link to choose a new password."
      links={links}
    >
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormField ids={EMAIL} label="Email" error={emailError}>
          <InputText
            id={EMAIL.input}
            type="email"
            autoComplete="email"
            inputMode="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            onBlur={touched.touch('email')}
            invalid={Boolean(emailError)}
            aria-describedby={describedBy(EMAIL, undefined, emailError)}
            autoFocus
          />
        </FormField>
        <Button type="submit" label="Send reset link" className="auth-form__submit" loading={resetMutation.isPending} />
      </form>
    </AuthCard>
  );
}
