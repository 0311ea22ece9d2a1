import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { InputText } from 'primereact/inputtext';
import { PASSWORD_MIN_LENGTH, normaliseEmail } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { brand } from '@/lib/brand';
import { confirmError, emailError, errorsOf, newPasswordError, useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useSignup } from '../api/signup';
import { AuthCard } from './auth-card';
import { SentPanel } from './sent-panel';

const EMAIL = fieldIds('signup-email');
const PASSWORD = fieldIds('signup-password');
const CONFIRM = fieldIds('signup-confirm');
const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters`;

/** Create an account; on success, a panel asks the user to check their e-mail. */
export function SignupScreen() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [marketingOptIn, setMarketingOptIn] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const touched = useTouched();
  const dialog = useMessageDialog();
  const signupMutation = useSignup();

  const showMarketing = !brand.hideMarketingEmailSignup;
  const errors = errorsOf({
    email: emailError(email),
    password: newPasswordError(password),
    confirm: confirmError(password, confirm),
  });
  const shown = (field: keyof typeof errors) => (touched.isShown(field) ? errors[field] : undefined);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    touched.touchAll();
    if (Object.keys(errors).length > 0) return;
    const body = { email: normaliseEmail(email), password, ...(showMarketing ? { marketingOptIn } : {}) };
    signupMutation.mutate(body, {
      onSuccess: (answer) => setSent(answer.message),
      onError: (error) => dialog.showError(error),
    });
  };

  if (sent) {
    return (
      <AuthCard title="Check your e-mail">
        <SentPanel message={sent} detail={`We sent it to ${normaliseEmail(email)}. Open the link in it to finish creating your account.`} />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Create an account"
      links={
        <span>
          Already have an account? <Link to="/login">Sign in</Link>
        </span>
      }
    >
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormField ids={EMAIL} label="Email" error={shown('email')}>
          <InputText
            id={EMAIL.input}
            type="email"
            autoComplete="email"
            inputMode="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            onBlur={touched.touch('email')}
            invalid={Boolean(shown('email'))}
            aria-describedby={describedBy(EMAIL, undefined, shown('email'))}
            autoFocus
          />
        </FormField>
        <FormField ids={PASSWORD} label="Password" hint={PASSWORD_HINT} error={shown('password')}>
          <PasswordInput
            id={PASSWORD.input}
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            onBlur={touched.touch('password')}
            invalid={Boolean(shown('password'))}
            aria-describedby={describedBy(PASSWORD, PASSWORD_HINT, shown('password'))}
          />
        </FormField>
        <FormField ids={CONFIRM} label="Confirm password" error={shown('confirm')}>
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
        {showMarketing && (
          <div className="checkbox-field">
            <Checkbox
              inputId="signup-marketing"
              checked={marketingOptIn}
              onChange={(event) => setMarketingOptIn(Boolean(event.checked))}
            />
            <label htmlFor="signup-marketing">Send me occasional e-mails about product news and tips</label>
          </div>
        )}
        <p className="auth-form__legal">
          By creating an account you agree to the{' '}
          <a href={brand.termsOfServiceURL} target="_blank" rel="noopener">
            Terms of Service
          </a>{' '}
          and the{' '}
          <a href={brand.privacyPolicyURL} target="_blank" rel="noopener">
            Privacy Policy
          </a>
          .
        </p>
        <Button type="submit" label="Create account" className="auth-form__submit" loading={signupMutation.isPending} />
      </form>
    </AuthCard>
  );
}
