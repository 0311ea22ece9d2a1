/**
 * The caller's alert subscription for a device (issue 14, DESIGN.md section 5 'Alerts'): e-mail
 * and/or SMS, for the device's ALERT, WARN and ALARM events, a reading crossing its warning or
 * alarm limits, and the device going offline, with one of the spec's schedules. Any device
 * user subscribes for themselves; SMS needs a phone verified on the Account page.
 */
import { LabelledDropdown } from '@/components/ui/labelled-dropdown';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import {
  ALERT_SCHEDULE_OPTIONS,
  loadErrorDetail,
  type AlertSubscription,
  type AlertSubscriptionBody,
} from '@portal/core';
import { useMessageDialog } from '@/lib/message-dialog';
import { useAlertSubscription, useSaveAlertSubscription } from '../api/alert-subscription';
import './device-alerts.css';

const FORM_ID = 'device-alerts-form';

export interface AlertsDialogProps {
  deviceid: string;
  visible: boolean;
  onHide(): void;
}

export function AlertsDialog({ deviceid, visible, onHide }: AlertsDialogProps) {
  const query = useAlertSubscription(deviceid);
  const save = useSaveAlertSubscription(deviceid);
  const dialog = useMessageDialog();

  const onSave = (body: AlertSubscriptionBody) =>
    save.mutate(body, {
      onSuccess: (answer) => {
        onHide();
        dialog.showSuccess(answer);
      },
      onError: (error) => dialog.showError(error),
    });

  const footer = (
    <div className="alerts-dialog__footer">
      <Button type="button" label="Cancel" text onClick={onHide} disabled={save.isPending} />
      <Button
        type="submit"
        form={FORM_ID}
        label="Save"
        icon="pi pi-check"
        loading={save.isPending}
        disabled={!query.data}
      />
    </div>
  );

  return (
    <Dialog
      visible={visible}
      onHide={() => {
        if (!save.isPending) onHide();
      }}
      header="Alerts"
      footer={footer}
      className="alerts-dialog"
      style={{ width: '34rem' }}
      breakpoints={{ '575px': 'calc(100vw - 16px)' }}
      draggable={false}
      resizable={false}
      maximizable={false}
    >
      {query.data ? (
        // Keyed by the answer: each opening (a fresh read) starts from what is saved.
        <AlertsForm key={query.dataUpdatedAt} saved={query.data} busy={save.isPending} onSave={onSave} />
      ) : query.isError ? (
        <div className="alerts-dialog__state" role="alert">
          <p>{loadErrorDetail(query.error)}</p>
          <Button type="button" label="Try again" outlined onClick={() => void query.refetch()} />
        </div>
      ) : (
        <div className="skeleton-stack" role="status" aria-busy="true" aria-label="Loading your alert settings">
          <div className="skeleton skeleton--label" />
          <div className="skeleton skeleton--input" />
          <div className="skeleton skeleton--label" />
          <div className="skeleton skeleton--input" />
        </div>
      )}
    </Dialog>
  );
}

type Flag = 'email' | 'sms' | 'events' | 'limits' | 'offline';

const CHANNELS: readonly { flag: Flag; label: string }[] = [
  { flag: 'email', label: 'E-mail' },
  { flag: 'sms', label: 'SMS' },
];

const KINDS: readonly { flag: Flag; label: string }[] = [
  { flag: 'events', label: 'ALERT, WARN and ALARM events' },
  { flag: 'limits', label: 'A reading crossing its warning or alarm limits' },
  { flag: 'offline', label: 'The device going offline' },
];

const SCHEDULES = ALERT_SCHEDULE_OPTIONS.map((o) => ({ label: o.label, value: o.value }));

interface AlertsFormProps {
  saved: AlertSubscription;
  busy: boolean;
  onSave(body: AlertSubscriptionBody): void;
}

function AlertsForm({ saved, busy, onSave }: AlertsFormProps) {
  const [form, setForm] = useState<AlertSubscriptionBody>({
    email: saved.email,
    sms: saved.sms,
    events: saved.events,
    limits: saved.limits,
    offline: saved.offline,
    schedule: SCHEDULES.some((s) => s.value === saved.schedule) ? saved.schedule : 3600,
  });
  const phone = saved.verifiedPhone;
  const set = (flag: Flag, value: boolean) => setForm((f) => ({ ...f, [flag]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSave(form);
  };

  const checkbox = ({ flag, label }: { flag: Flag; label: string }) => {
    const disabled = busy || (flag === 'sms' && !phone && !form.sms);
    return (
      <label key={flag} className="alerts-check">
        <input
          type="checkbox"
          checked={form[flag]}
          disabled={disabled}
          onChange={(event) => set(flag, event.target.checked)}
        />
        <span>
          {label}
          {flag === 'sms' && phone && <span className="muted"> to {phone}</span>}
        </span>
      </label>
    );
  };

  return (
    <form id={FORM_ID} className="alerts-form" onSubmit={submit} noValidate>
      <p className="muted alerts-form__intro">
        Your own alerts for this device. The first alert of each period is sent at once; later ones in the same period
        come together in one digest at its end.
      </p>
      <fieldset className="alerts-fieldset">
        <legend>Send alerts by</legend>
        {CHANNELS.map(checkbox)}
        {!phone && (
          <p className="muted alerts-hint">
            SMS needs a verified phone: <Link to="/account/notifications">add one on the Account page</Link>.
          </p>
        )}
      </fieldset>
      <fieldset className="alerts-fieldset">
        <legend>Alert me about</legend>
        {KINDS.map(checkbox)}
      </fieldset>
      <label className="alerts-schedule">
        <span>Schedule</span>
        <LabelledDropdown
          value={form.schedule}
          options={SCHEDULES}
          disabled={busy}
          onChange={(event) => setForm((f) => ({ ...f, schedule: Number(event.value) }))}
          className="alerts-schedule__dropdown"
          label="Schedule"
          triggerLabel="Show the schedules"
        />
      </label>
    </form>
  );
}
