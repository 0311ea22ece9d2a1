import { useEffect, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { ProgressSpinner } from 'primereact/progressspinner';
import {
  MFA_ERROR_DELAY_MS,
  RECOVERY_CODE_INPUT_MAX_LENGTH,
  isValidMfaCode,
  isValidRecoveryCode,
  mfaFailureMessage,
  type LoginResponse,
} from '@portal/core';
import { CodeInput } from '@/components/ui/code-input';
import { fieldIds } from '@/components/ui/form-field';
import { useSubmitMfa } from '../api/submit-mfa';
import { useSubmitRecoveryCode } from '../api/submit-recovery-code';
import { AuthCard } from './auth-card';

export type MfaChallenge = Extract<LoginResponse, { status: 'MFA_REQUIRED' }>['challenge'];

const CODE = fieldIds('mfa-code');
const RECOVERY = fieldIds('mfa-recovery-code');

const PROMPTS: Record<MfaChallenge, string> = {
  SOFTWARE_TOKEN_MFA: 'Enter the 6-digit code shown in your authenticator app.',
  SMS_MFA: 'Enter the 6-digit code we sent to your phone by text message.',
};

const RECOVERY_PROMPT =
  'Enter one of the recovery codes you saved when you turned on multi-factor authentication. Each code works once.';

const BACK_TO_CODE: Record<MfaChallenge, string> = {
  SOFTWARE_TOKEN_MFA: 'Use a code from your authenticator app',
  SMS_MFA: 'Use the code we sent by text message',
};

interface MfaStepProps {
  challenge: MfaChallenge;
  onAnswer: (answer: LoginResponse) => void;
  onBack: () => void;
}

/**
 * The code step of sign-in (spec 2 sections 2, 4, 5): digits only, submits by itself at the
 * sixth digit with a spinner; a failure shows, after 2 seconds, the message in a red alert
 * and clears the code. 'Use a recovery code' swaps in a field for a one-time recovery code.
 */
export function MfaStep({ challenge, onAnswer, onBack }: MfaStepProps) {
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mfaMutation = useSubmitMfa();
  const recoveryMutation = useSubmitRecoveryCode();

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    // the input is disabled while a code is checked; give focus back for the next attempt
    if (!busy) document.getElementById(recovery ? RECOVERY.input : CODE.input)?.focus();
  }, [busy, recovery]);

  const handlers = {
    onSuccess: onAnswer,
    onError: (failure: Error) => {
      timer.current = setTimeout(() => {
        setError(mfaFailureMessage(failure));
        setCode('');
        setBusy(false);
      }, MFA_ERROR_DELAY_MS);
    },
  };

  const submit = (value: string) => {
    if (busy || !(recovery ? isValidRecoveryCode(value) : isValidMfaCode(value))) return;
    setBusy(true);
    setError(null);
    if (recovery) recoveryMutation.mutate({ recoveryCode: value }, handlers);
    else mfaMutation.mutate({ code: value }, handlers);
  };

  const onChange = (value: string) => {
    setCode(value);
    if (value.length === 6) submit(value);
  };

  const switchMode = () => {
    setRecovery(!recovery);
    setCode('');
    setError(null);
  };

  return (
    <AuthCard
      title={recovery ? 'Sign in with a recovery code' : 'Verification code'}
      subtitle={recovery ? RECOVERY_PROMPT : PROMPTS[challenge]}
      links={
        <>
          <button type="button" className="link-button" onClick={switchMode} disabled={busy}>
            <i className={recovery ? 'pi pi-mobile' : 'pi pi-key'} aria-hidden="true" />
            {recovery ? BACK_TO_CODE[challenge] : 'Use a recovery code'}
          </button>
          <button type="button" className="link-button" onClick={onBack}>
            <i className="pi pi-arrow-left" aria-hidden="true" /> Back to sign in
          </button>
        </>
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
          <label htmlFor={recovery ? RECOVERY.input : CODE.input} className="form-field__label">
            {recovery ? 'Recovery code' : 'Code'}
          </label>
          <div className="mfa-code">
            {recovery ? (
              <InputText
                id={RECOVERY.input}
                className="recovery-code-input"
                value={code}
                onChange={(event) => setCode(event.target.value)}
                disabled={busy}
                invalid={Boolean(error)}
                aria-invalid={Boolean(error) || undefined}
                aria-describedby={error ? CODE.error : undefined}
                maxLength={RECOVERY_CODE_INPUT_MAX_LENGTH}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                placeholder="xxxx-xxxx"
              />
            ) : (
              <CodeInput
                id={CODE.input}
                value={code}
                onChange={onChange}
                disabled={busy}
                invalid={Boolean(error)}
                autoFocus
                describedBy={error ? CODE.error : undefined}
              />
            )}
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
        <Button
          type="submit"
          label="Verify"
          className="auth-form__submit"
          disabled={busy || !(recovery ? isValidRecoveryCode(code) : isValidMfaCode(code))}
        />
      </form>
    </AuthCard>
  );
}
