import { useEffect, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { ProgressSpinner } from 'primereact/progressspinner';
import {
  DEVICE_MESSAGES,
  MFA_ERROR_DELAY_MS,
  isValidMfaCode,
  mfaFailureMessage,
  mutationErrorMessage,
} from '@portal/core';
import { ApiError } from '@/lib/api';
import { CodeInput } from '@/components/ui/code-input';
import { fieldIds } from '@/components/ui/form-field';
import { useRequestDevicePasswords } from '../api/request-device-passwords';
import { AdminCard, ErrorLine } from './admin-card';

const CODE = fieldIds('admin-passwords-code');

/**
 * Device passwords (spec 2 sections 4, 7; API-43): the setup password, to an ADMIN. A user with
 * MFA gives a code (the server says so, and texts one to an SMS user): 6 digits, digits only,
 * submitted at the sixth with a spinner; a failure shows after 2 seconds and clears the code.
 */
export function PasswordsCard({ deviceid }: { deviceid: string }) {
  const mutation = useRequestDevicePasswords(deviceid);
  const [password, setPassword] = useState<string | null>(null);
  const [prompt, setPrompt] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (prompt && !busy) document.getElementById(CODE.input)?.focus();
  }, [prompt, busy]);

  const ask = (withCode?: string) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    mutation.mutate(withCode, {
      onSuccess: (answer) => {
        setBusy(false);
        setPassword(answer.setupPassword);
        setPrompt(null);
        setCode('');
      },
      onError: (failure) => {
        if (withCode === undefined) {
          setBusy(false);
          if (failure instanceof ApiError && failure.code === 'MFA_REQUIRED')
            setPrompt(failure.message || DEVICE_MESSAGES.mfaRequired);
          else setError(mutationErrorMessage(failure));
          return;
        }
        timer.current = setTimeout(() => {
          setError(mfaFailureMessage(failure));
          setCode('');
          setBusy(false);
        }, MFA_ERROR_DELAY_MS);
      },
    });
  };

  const onCode = (value: string) => {
    setCode(value);
    if (isValidMfaCode(value)) ask(value);
  };

  return (
    <AdminCard id="admin-passwords" title="Device passwords">
      <p className="muted as-text">
        The setup password printed on the device label: it adds the device to an account. Anyone who has it can add the
        device.
      </p>
      {password !== null ? (
        <>
          <dl className="as-facts">
            <dt>Setup password</dt>
            <dd>
              <code className="as-secret" data-testid="setup-password">
                {password}
              </code>
            </dd>
          </dl>
          <div className="form-actions form-actions--start">
            <Button type="button" label="Hide" icon="pi pi-eye-slash" outlined onClick={() => setPassword(null)} />
          </div>
        </>
      ) : prompt !== null ? (
        <form
          className="as-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (isValidMfaCode(code)) ask(code);
          }}
        >
          <div className="form-field">
            <label htmlFor={CODE.input} className="form-field__label">
              Multi-Factor Authentication Code
            </label>
            <small id={CODE.hint} className="form-field__hint">
              {prompt}
            </small>
            <div className="mfa-code">
              <CodeInput
                id={CODE.input}
                value={code}
                onChange={onCode}
                disabled={busy}
                invalid={Boolean(error)}
                describedBy={error ? `${CODE.hint} ${CODE.error}` : CODE.hint}
              />
              {busy && <ProgressSpinner className="mfa-code__spinner" strokeWidth="5" aria-label="Checking the code" />}
            </div>
          </div>
          <ErrorLine id={CODE.error} message={error} />
          <div className="form-actions form-actions--start">
            <Button
              type="button"
              label="Cancel"
              text
              disabled={busy}
              onClick={() => {
                setPrompt(null);
                setCode('');
                setError(null);
              }}
            />
          </div>
        </form>
      ) : (
        <>
          <ErrorLine message={error} />
          <div className="form-actions form-actions--start">
            <Button
              type="button"
              label="Show setup password"
              icon="pi pi-key"
              outlined
              loading={busy}
              onClick={() => ask()}
            />
          </div>
        </>
      )}
    </AdminCard>
  );
}
