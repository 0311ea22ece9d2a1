/**
 * The Account page's Notifications tab (issue 14): the phone SMS alerts go to, verified by a
 * code, and the history of the user's alert e-mails and SMS (sent, refused by the device's
 * monthly quota, or failed). Subscriptions themselves are set per device (its Alerts button).
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { LoadError, LoadingLines } from '@/components/ui/load-states';
import { InputText } from 'primereact/inputtext';
import { isValidMfaCode, loadErrorDetail, type Notification } from '@portal/core';
import { RefreshButton } from '@/components/ui/refresh-button';
import { CodeInput } from '@/components/ui/code-input';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { LocalTime } from '@/components/ui/local-time';
import { phoneError as phoneMessage, useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useAlertPhone, useConfirmAlertPhone, useRemoveAlertPhone, useSetAlertPhone } from '../api/alert-phone';
import { useNotifications } from '../api/get-notifications';
import './notifications.css';

export function NotificationsTab() {
  return (
    <div className="notifications-tab">
      <AlertPhoneSection />
      <HistorySection />
    </div>
  );
}

const PHONE = fieldIds('alert-phone');
const CODE = fieldIds('alert-phone-code');
const PHONE_HINT = 'International format with the country code, e.g. +61412345678. We text it a code.';

function AlertPhoneSection() {
  const phoneQuery = useAlertPhone();
  const setPhone = useSetAlertPhone();
  const confirm = useConfirmAlertPhone();
  const remove = useRemoveAlertPhone();
  const dialog = useMessageDialog();
  const touched = useTouched();
  const [phone, setPhoneText] = useState('');
  const [code, setCode] = useState('');
  const [editing, setEditing] = useState(false);

  const invalid = phoneMessage(phone);
  const phoneError = touched.isShown('phone') ? invalid : undefined;
  const state = phoneQuery.data;
  const pending = state?.pendingPhone ?? null;

  const send = (event: FormEvent) => {
    event.preventDefault();
    touched.touchAll();
    if (invalid || setPhone.isPending) return;
    setPhone.mutate(phone.trim(), {
      onSuccess: (answer) => {
        setEditing(false);
        touched.reset();
        dialog.showSuccess(answer);
      },
      onError: (error) => dialog.showError(error),
    });
  };

  const verify = (event?: FormEvent) => {
    event?.preventDefault();
    if (!isValidMfaCode(code) || confirm.isPending) return;
    confirm.mutate(code, {
      onSuccess: (answer) => {
        setCode('');
        dialog.showSuccess(answer);
      },
      onError: (error) => {
        setCode('');
        dialog.showError(error);
      },
    });
  };

  return (
    <section className="notifications-section" aria-labelledby="alert-phone-heading">
      <h2 id="alert-phone-heading" className="notifications-section__title">
        Phone for SMS alerts
      </h2>
      {phoneQuery.isError ? (
        <LoadError message={loadErrorDetail(phoneQuery.error)} onRetry={() => void phoneQuery.refetch()} />
      ) : !state ? (
        <div className="skeleton-stack" role="status" aria-busy="true" aria-label="Loading your phone">
          <div className="skeleton skeleton--input" />
        </div>
      ) : (
        <>
          <p className="notifications-phone">
            {state.phone ? (
              <>
                <i className="pi pi-check-circle" aria-hidden="true" /> SMS alerts go to <strong>{state.phone}</strong>.
              </>
            ) : (
              <span className="muted">No phone verified: SMS alerts cannot be sent to you.</span>
            )}
          </p>
          {pending && !editing ? (
            <form className="notifications-form" onSubmit={verify} noValidate>
              <FormField ids={CODE} label={`Enter the 6-digit code sent to ${pending}`}>
                <CodeInput
                  id={CODE.input}
                  value={code}
                  onChange={setCode}
                  disabled={confirm.isPending}
                  onEnter={verify}
                />
              </FormField>
              <div className="form-actions">
                <Button type="button" label="Use another number" text onClick={() => setEditing(true)} />
                <Button type="submit" label="Verify" disabled={!isValidMfaCode(code)} loading={confirm.isPending} />
              </div>
            </form>
          ) : editing || !state.phone ? (
            <form className="notifications-form" onSubmit={send} noValidate>
              <FormField ids={PHONE} label="Mobile phone" hint={PHONE_HINT} error={phoneError}>
                <InputText
                  id={PHONE.input}
                  type="tel"
                  inputMode="tel"
                  autoComplete="tel"
                  value={phone}
                  placeholder="+61412345678"
                  onChange={(event) => setPhoneText(event.target.value)}
                  onBlur={touched.touch('phone')}
                  invalid={Boolean(phoneError)}
                  aria-describedby={describedBy(PHONE, PHONE_HINT, phoneError)}
                />
              </FormField>
              <div className="form-actions">
                {editing && <Button type="button" label="Cancel" text onClick={() => setEditing(false)} />}
                <Button type="submit" label="Send code" icon="pi pi-send" loading={setPhone.isPending} />
              </div>
            </form>
          ) : (
            <div className="form-actions">
              <Button
                type="button"
                label="Remove phone"
                text
                severity="danger"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(undefined, {
                    onSuccess: (answer) => dialog.showSuccess(answer),
                    onError: (error) => dialog.showError(error),
                  })
                }
              />
              <Button type="button" label="Change phone" outlined onClick={() => setEditing(true)} />
            </div>
          )}
        </>
      )}
    </section>
  );
}

const STATUS_TEXT: Record<Notification['status'], string> = {
  sent: 'Sent',
  refused: 'Refused: monthly quota',
  failed: 'Failed',
};

function HistorySection() {
  const query = useNotifications();
  const rows = query.data?.notifications ?? [];
  return (
    <section className="notifications-section" aria-labelledby="notification-history-heading">
      <div className="notifications-section__head">
        <h2 id="notification-history-heading" className="notifications-section__title">
          Notification history
        </h2>
        <RefreshButton fetching={query.isFetching} onRefresh={() => void query.refetch()} />
      </div>
      {query.isError && !query.data ? (
        <LoadError message={loadErrorDetail(query.error)} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <LoadingLines label="Loading your notifications" count={4} />
      ) : rows.length === 0 ? (
        <p className="muted">
          No alerts have been sent to you yet. Choose what to be alerted about with the Alerts button on a device&apos;s
          page.
        </p>
      ) : (
        <div className="data-table-wrap">
          <table className="data-table notifications-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Device</th>
                <th scope="col">Channel</th>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((n) => (
                <tr key={n.id}>
                  <td data-label="Time">
                    <LocalTime ts={n.ts} />
                  </td>
                  <td data-label="Device">
                    <Link to={`/data/${n.deviceid}`}>{n.deviceName}</Link>
                  </td>
                  <td data-label="Channel">
                    {n.channel === 'email' ? 'E-mail' : 'SMS'}
                    {n.kind === 'digest' ? ' (digest)' : ''}
                  </td>
                  <td data-label="Subject" className="notifications-table__subject">
                    {n.subject}
                  </td>
                  <td data-label="Status">
                    <span className={`notifications-status notifications-status--${n.status}`}>
                      {STATUS_TEXT[n.status]}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
