import { Suspense, lazy, useState, type FormEvent } from 'react';
import { useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { isValidMfaCode, type MfaEnabledResponse, type TotpSetupResponse, type UserInfo } from '@portal/core';
import { CodeInput } from '@/components/ui/code-input';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { FIELD_MESSAGES, phoneError as phoneMessage, useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useDisableMfa } from '../api/disable-mfa';
import { useEnableSms } from '../api/enable-sms';
import { useEnableTotp } from '../api/enable-totp';
import { useSetupSms } from '../api/setup-sms';
import { useSetupTotp } from '../api/setup-totp';
import { useStoreUser } from '../hooks/use-store-user';
import { PHONE_HINT } from './profile-tab';
import type { IssuedRecoveryCodes } from './recovery-codes-dialog';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import * as queryKeys from '@/lib/query-keys';

// Shown once, right after MFA is turned on or a new set is made: its code (and PrimeReact's dialog) loads then.
const RecoveryCodesDialog = lazy(() =>
  import('./recovery-codes-dialog').then((m) => ({ default: m.RecoveryCodesDialog })),
);

const STATUS: Record<UserInfo['mfa'], string> = {
  NONE: 'Off',
  TOTP: 'On: authenticator app',
  SMS: 'On: text message',
};

/** Multi-factor authentication: status, enrol an authenticator app or SMS, recovery codes, turn off. */
export function MfaTab({ user }: { user: UserInfo }) {
  const [method, setMethod] = useState<'TOTP' | 'SMS' | null>(null);
  // Kept here: turning MFA on swaps the setup form for the 'on' state, and the codes must stay shown.
  const [issued, setIssued] = useState<IssuedRecoveryCodes | null>(null);
  const enabled = user.mfa !== 'NONE';
  const onEnabled = (answer: MfaEnabledResponse) => {
    setMethod(null);
    setIssued({ message: answer.message, codes: answer.recoveryCodes, email: answer.user.email });
  };

  return (
    <div className="mfa-tab">
      <div className={`mfa-status mfa-status--${enabled ? 'on' : 'off'}`} role="status">
        <i className={enabled ? 'pi pi-shield' : 'pi pi-info-circle'} aria-hidden="true" />
        <div>
          <div className="mfa-status__label">Multi-factor authentication</div>
          <div className="mfa-status__value">
            {STATUS[user.mfa]}
            {user.mfa === 'SMS' && user.phone ? ` (${user.phone})` : ''}
          </div>
        </div>
      </div>
      {enabled ? (
        <>
          <RecoveryCodesPanel email={user.email} onIssued={setIssued} />
          <TurnOff />
        </>
      ) : method === 'TOTP' ? (
        <TotpSetup onCancel={() => setMethod(null)} onEnabled={onEnabled} />
      ) : method === 'SMS' ? (
        <SmsSetup initialPhone={user.phone} onCancel={() => setMethod(null)} onEnabled={onEnabled} />
      ) : (
        <>
          <p className="muted">
            Add a second step to signing in: after your password, you enter a 6-digit code from your phone.
          </p>
          <div className="mfa-options">
            <section className="mfa-option" aria-labelledby="mfa-option-totp">
              <i className="pi pi-mobile mfa-option__icon" aria-hidden="true" />
              <h3 id="mfa-option-totp">Authenticator app</h3>
              <p>Use an app such as Google Authenticator, Microsoft Authenticator or 1Password to make codes.</p>
              <Button label="Set up authenticator app" outlined onClick={() => setMethod('TOTP')} />
            </section>
            <section className="mfa-option" aria-labelledby="mfa-option-sms">
              <i className="pi pi-comment mfa-option__icon" aria-hidden="true" />
              <h3 id="mfa-option-sms">Text message (SMS)</h3>
              <p>Receive a code by text message on your phone each time you sign in.</p>
              <Button label="Set up text message" outlined onClick={() => setMethod('SMS')} />
            </section>
          </div>
        </>
      )}
      {issued && (
        <Suspense fallback={null}>
          <RecoveryCodesDialog issued={issued} onHide={() => setIssued(null)} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * The code of a setup's last step and its submit: turns MFA on with a valid code (the user is
 * stored and `onEnabled` shows the answer with its recovery codes), or clears the code and shows the error.
 */
function useEnableWithCode(
  enableMutation: UseMutationResult<MfaEnabledResponse, Error, string>,
  onEnabled: (answer: MfaEnabledResponse) => void,
) {
  const [code, setCode] = useState('');
  const dialog = useMessageDialog();
  const storeUser = useStoreUser();
  const queryClient = useQueryClient();

  const enable = (event?: FormEvent) => {
    event?.preventDefault();
    if (!isValidMfaCode(code) || enableMutation.isPending) return;
    enableMutation.mutate(code, {
      onSuccess: (answer) => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.account.recoveryCodes });
        storeUser(answer.user);
        onEnabled(answer);
      },
      onError: (error) => {
        setCode('');
        dialog.showError(error);
      },
    });
  };

  return { code, setCode, enable };
}

const TOTP_CODE = fieldIds('mfa-totp-code');

interface SetupProps {
  onCancel: () => void;
  onEnabled: (answer: MfaEnabledResponse) => void;
}

function TotpSetup({ onCancel, onEnabled }: SetupProps) {
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const dialog = useMessageDialog();
  const setupMutation = useSetupTotp();
  const enableMutation = useEnableTotp();
  const { code, setCode, enable } = useEnableWithCode(enableMutation, onEnabled);

  const start = () =>
    setupMutation.mutate(undefined, {
      onSuccess: setSetup,
      onError: (error) => dialog.showError(error),
    });

  if (!setup) {
    return (
      <div className="mfa-step">
        <h3>Set up an authenticator app</h3>
        <p className="muted">We will show a QR code to scan with your authenticator app.</p>
        <div className="form-actions">
          <Button type="button" label="Cancel" text onClick={onCancel} />
          <Button
            type="button"
            label="Show QR code"
            icon="pi pi-qrcode"
            loading={setupMutation.isPending}
            onClick={start}
          />
        </div>
      </div>
    );
  }

  const groupedSecret = setup.secret.match(/.{1,4}/g)?.join(' ') ?? setup.secret;
  return (
    <form className="mfa-step" onSubmit={enable} noValidate>
      <h3>Set up an authenticator app</h3>
      <ol className="mfa-steps">
        <li>
          Scan this QR code with your authenticator app.
          <img
            className="mfa-qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
            alt="QR code to add this account to an authenticator app"
            width={176}
            height={176}
          />
          <div className="mfa-secret">
            <span className="muted">Cannot scan it? Enter this key instead:</span>
            <span className="mfa-secret__value">
              {/* named by the text before it: a code element may not carry an aria-label */}
              <code>{groupedSecret}</code>
              <Button
                type="button"
                icon="pi pi-copy"
                text
                rounded
                aria-label="Copy secret key"
                title="Copy secret key"
                onClick={() => void navigator.clipboard?.writeText(setup.secret)}
              />
            </span>
          </div>
        </li>
        <li>
          <label htmlFor={TOTP_CODE.input}>Enter the 6-digit code the app shows.</label>
          <CodeInput
            id={TOTP_CODE.input}
            value={code}
            onChange={setCode}
            disabled={enableMutation.isPending}
            onEnter={enable}
          />
        </li>
      </ol>
      <div className="form-actions">
        <Button type="button" label="Cancel" text onClick={onCancel} />
        <Button type="submit" label="Turn on" disabled={!isValidMfaCode(code)} loading={enableMutation.isPending} />
      </div>
    </form>
  );
}

const SMS_PHONE = fieldIds('mfa-sms-phone');
const SMS_CODE = fieldIds('mfa-sms-code');

function SmsSetup({ initialPhone, onCancel, onEnabled }: SetupProps & { initialPhone: string }) {
  const [phone, setPhone] = useState(initialPhone);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const touched = useTouched();
  const dialog = useMessageDialog();
  const setupMutation = useSetupSms();
  const enableMutation = useEnableSms();
  const { code, setCode, enable } = useEnableWithCode(enableMutation, onEnabled);

  const invalid = phoneMessage(phone);
  const phoneError = touched.isShown('phone') ? invalid : undefined;

  const send = (event: FormEvent) => {
    event.preventDefault();
    touched.touchAll();
    if (invalid) return;
    const target = phone.trim();
    setupMutation.mutate(target, {
      onSuccess: (answer) => {
        setSentTo(target);
        dialog.showSuccess(answer);
      },
      onError: (error) => dialog.showError(error),
    });
  };

  if (sentTo) {
    return (
      <form className="mfa-step" onSubmit={enable} noValidate>
        <h3>Set up text message</h3>
        <FormField ids={SMS_CODE} label={`Enter the 6-digit code sent to ${sentTo}`}>
          <CodeInput
            id={SMS_CODE.input}
            value={code}
            onChange={setCode}
            disabled={enableMutation.isPending}
            autoFocus
            onEnter={enable}
          />
        </FormField>
        <div className="form-actions">
          <Button type="button" label="Use another number" text onClick={() => setSentTo(null)} />
          <Button type="submit" label="Turn on" disabled={!isValidMfaCode(code)} loading={enableMutation.isPending} />
        </div>
      </form>
    );
  }

  return (
    <form className="mfa-step" onSubmit={send} noValidate>
      <h3>Set up text message</h3>
      <FormField ids={SMS_PHONE} label="Mobile phone" hint={PHONE_HINT} error={phoneError}>
        <InputText
          id={SMS_PHONE.input}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={phone}
          placeholder="+61412345678"
          onChange={(event) => setPhone(event.target.value)}
          onBlur={touched.touch('phone')}
          invalid={Boolean(phoneError)}
          aria-describedby={describedBy(SMS_PHONE, PHONE_HINT, phoneError)}
          autoFocus
        />
      </FormField>
      <div className="form-actions">
        <Button type="button" label="Cancel" text onClick={onCancel} />
        <Button type="submit" label="Send code" icon="pi pi-send" loading={setupMutation.isPending} />
      </div>
    </form>
  );
}

const OFF_PASSWORD = fieldIds('mfa-off-password');

function TurnOff() {
  const [password, setPassword] = useState('');
  const touched = useTouched();
  const dialog = useMessageDialog();
  const storeUser = useStoreUser();
  const queryClient = useQueryClient();
  const disableMutation = useDisableMfa();

  const missing = password === '';
  const passwordError = touched.isShown('password') && missing ? FIELD_MESSAGES.passwordRequired : undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    touched.touchAll();
    if (missing) return;
    disableMutation.mutate(password, {
      onSuccess: (answer) => {
        setPassword('');
        touched.reset();
        void queryClient.invalidateQueries({ queryKey: queryKeys.account.recoveryCodes });
        storeUser(answer.user);
        dialog.showSuccess(answer);
      },
      onError: (error) => {
        setPassword('');
        dialog.showError(error);
      },
    });
  };

  return (
    <form className="mfa-step" onSubmit={onSubmit} noValidate>
      <h3>Turn off multi-factor authentication</h3>
      <p className="muted">
        Signing in will need only your password, and your recovery codes stop working. Enter it to confirm.
      </p>
      <FormField ids={OFF_PASSWORD} label="Password" error={passwordError}>
        <PasswordInput
          id={OFF_PASSWORD.input}
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          onBlur={touched.touch('password')}
          invalid={Boolean(passwordError)}
          aria-describedby={describedBy(OFF_PASSWORD, undefined, passwordError)}
        />
      </FormField>
      <div className="form-actions">
        <Button type="submit" label="Turn off" severity="danger" outlined loading={disableMutation.isPending} />
      </div>
    </form>
  );
}
