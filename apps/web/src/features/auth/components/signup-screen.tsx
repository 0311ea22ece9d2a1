import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { InputText } from 'primereact/inputtext';
import { normaliseEmail } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { NewPasswordFields } from '@/components/ui/new-password-fields';
import { brand } from '@/lib/brand';
import { emailError, errorsOf, newPasswordErrors, useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useSignup } from '../api/signup';
import { AuthCard } from './auth-card';
import { SentPanel } from './sent-panel';

const EMAIL = fieldIds('signup-email');
const PASSWORD = fieldIds('signup-password');
const CONFIRM = fieldIds('signup-confirm');

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
    ...newPasswordErrors(password, confirm),
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
        <SentPanel
          message={sent}
          detail={`We sent it to ${normaliseEmail(email)}. Open the link in it to finish creating your account.`}
        />
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
        <NewPasswordFields
          ids={{ password: PASSWORD, confirm: CONFIRM }}
          labels={{ password: 'Password', confirm: 'Confirm password' }}
          password={password}
          confirm={confirm}
          onPasswordChange={setPassword}
          onConfirmChange={setConfirm}
          errors={errors}
          touched={touched}
        />
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
