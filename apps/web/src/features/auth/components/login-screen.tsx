import { Suspense, lazy, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { canSubmitLogin, normaliseEmail, type LoginResponse } from '@portal/core';
import { FormField, fieldIds } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { useAuth } from '@/lib/auth/auth-context';
import { useMessageDialog } from '@/lib/message-dialog';
import { useLogin } from '../api/login';
import { AuthCard } from './auth-card';
import type { MfaChallenge } from './mfa-step';

// The code step is needed only by users with multi-factor authentication: load it on demand.
const MfaStep = lazy(() => import('./mfa-step').then((m) => ({ default: m.MfaStep })));

const EMAIL = fieldIds('login-email');
const PASSWORD = fieldIds('login-password');

/** Sign in: e-mail and password, then the code step when multi-factor authentication is on. */
export function LoginScreen() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const { setUser } = useAuth();
  const dialog = useMessageDialog();
  const loginMutation = useLogin();

  const onAnswer = (answer: LoginResponse) => {
    if (answer.status === 'SIGNED_IN') setUser(answer.user);
    else setChallenge(answer.challenge);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmitLogin(email, password) || loginMutation.isPending) return;
    void import('./mfa-step'); // warm the code step while the credentials are checked
    loginMutation.mutate(
      { email: normaliseEmail(email), password },
      {
        onSuccess: onAnswer,
        onError: (error) => {
          setPassword('');
          dialog.showError(error);
        },
      },
    );
  };

  if (challenge) {
    return (
      <Suspense fallback={null}>
        <MfaStep
          challenge={challenge}
          onAnswer={onAnswer}
          onBack={() => {
            setChallenge(null);
            setPassword('');
          }}
        />
      </Suspense>
    );
  }

  return (
    <AuthCard
      title="Sign in"
      links={
        <>
          <Link to="/resetpassword">Forgot your password?</Link>
          <span>
            New here? <Link to="/signup">Create an account</Link>
          </span>
        </>
      }
    >
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormField ids={EMAIL} label="Email">
          <InputText
            id={EMAIL.input}
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            autoFocus
          />
        </FormField>
        <FormField ids={PASSWORD} label="Password">
          <PasswordInput
            id={PASSWORD.input}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </FormField>
        <Button
          type="submit"
          label="Sign in"
          className="auth-form__submit"
          disabled={!canSubmitLogin(email, password)}
          loading={loginMutation.isPending}
        />
      </form>
    </AuthCard>
  );
}
