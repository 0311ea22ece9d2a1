import { useEffect, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { ProgressSpinner } from 'primereact/progressspinner';
import { MFA_ERROR_DELAY_MS, isValidMfaCode, mfaFailureMessage, type LoginResponse } from '@portal/core';
import { CodeInput } from '@/components/ui/code-input';
import { fieldIds } from '@/components/ui/form-field';
import { useSubmitMfa } from '../api/submit-mfa';
import { AuthCard } from './auth-card';

export type MfaChallenge = Extract<LoginResponse, { status: 'MFA_REQUIRED' }>['challenge'];

const CODE = fieldIds('mfa-code');

const PROMPTS: Record<MfaChallenge, string> = {
  SOFTWARE_TOKEN_MFA: 'Enter the 6-digit code shown in your authenticator app.',
  SMS_MFA: 'Enter the 6-digit code we sent to your phone by text message.',
};

interface MfaStepProps {
  challenge: MfaChallenge;
  onAnswer: (answer: LoginResponse) => void;
  onBack: () => void;
}

/**
 * The code step of sign-in (spec 2 sections 2, 4, 5): digits only, submits by itself at the
 * sixth digit with a spinner; a failure shows, after 2 seconds, the message in a red alert
 * and clears the code.
 */
export function MfaStep({ challenge, onAnswer, onBack }: MfaStepProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mfaMutation = useSubmitMfa();

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    // the input is disabled while a code is checked; give focus back for the next attempt
    if (!busy) document.getElementById(CODE.input)?.focus();
  }, [busy]);

  const submit = (value: string) => {
    if (busy || !isValidMfaCode(value)) return;
    setBusy(true);
    setError(null);
    mfaMutation.mutate(
      { code: value },
      {
        onSuccess: onAnswer,
        onError: (failure) => {
          timer.current = setTimeout(() => {
            setError(mfaFailureMessage(failure));
            setCode('');
            setBusy(false);
          }, MFA_ERROR_DELAY_MS);
        },
      },
    );
  };

  const onChange = (value: string) => {
    setCode(value);
    if (value.length === 6) submit(value);
  };

  return (
    <AuthCard
      title="Verification code"
      subtitle={PROMPTS[challenge]}
      links={
        <button type="button" className="link-button" onClick={onBack}>
          <i className="pi pi-arrow-left" aria-hidden="true" /> Back to sign in
        </button>
      }
    >
      <form
        className="auth-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit(code);
        }}
      >
        <div className="form-field">
          <label htmlFor={CODE.input} className="form-field__label">
            Code
          </label>
          <div className="mfa-code">
            <CodeInput
              id={CODE.input}
              value={code}
              onChange={onChange}
              disabled={busy}
              invalid={Boolean(error)}
              autoFocus
              describedBy={error ? CODE.error : undefined}
            />
            {busy && (
              <ProgressSpinner
                className="mfa-code__spinner"
                strokeWidth="6"
                aria-label="Checking the code"
                role="status"
              />
            )}
          </div>
        </div>
        {error && (
          <div id={CODE.error}>
            <Message severity="error" text={error} className="mfa-code__error" />
          </div>
        )}
        <Button type="submit" label="Verify" className="auth-form__submit" disabled={busy || !isValidMfaCode(code)} />
      </form>
    </AuthCard>
  );
}
