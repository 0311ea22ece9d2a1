/**
 * The Support page (/support, /support/{deviceid}; spec 1 section 2, spec 2 section 7): a subject
 * and a message for the support team, about a device when the address names one (its facts go
 * along, and its recent server log where the user may read it), sent with POST /support-request;
 * then a confirmation saying where the reply will go. Field rules and texts are core's, the
 * server checks them again.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import {
  SUPPORT_LIMITS,
  mutationErrorMessage,
  supportAttachmentText,
  supportRequestErrors,
  type SupportAttachment,
} from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { useTouched } from '@/lib/form';
import { useSendSupportRequest, type SupportRequestResponse } from '../api/send-support-request';
import './support.css';
import { usePageTitle } from '@/lib/page-title';

/** The device a request is about, as the page knows it. */
export interface SupportDevice {
  deviceid: string;
  name: string;
  /**
   * What will go with the request (core supportAttachment of the user's role and the plan); null
   * when the device's settings could not be read (the server decides, the confirmation says).
   */
  attachment: SupportAttachment | null;
}

export interface SupportPageProps {
  /** Where the reply goes: the signed-in user's address. */
  email: string;
  device: SupportDevice | null;
}

const SUBJECT = fieldIds('support-subject');
const MESSAGE = fieldIds('support-message');

export function SupportPage({ email, device }: SupportPageProps) {
  usePageTitle('Support', device?.name);
  const [sent, setSent] = useState<SupportRequestResponse | null>(null);
  // A new form for each request: "Send another request" starts a blank one.
  const [round, setRound] = useState(0);

  return (
    <div className="page support">
      <header className="page-header">
        <h1 className="page-title">Support</h1>
        <p className="page-subtitle">
          Ask the support team about {device ? 'this device' : 'anything in the portal'}. The reply goes to{' '}
          <strong>{email}</strong>.
        </p>
      </header>
      {sent ? (
        <SupportSent
          answer={sent}
          device={device}
          onAnother={() => {
            setSent(null);
            setRound((r) => r + 1);
          }}
        />
      ) : (
        <SupportForm key={round} device={device} onSent={setSent} />
      )}
    </div>
  );
}

function DeviceNote({ device }: { device: SupportDevice }) {
  return (
    <div className="support__device" id="support-device">
      <i className="pi pi-paperclip support__device-icon" aria-hidden="true" />
      <div>
        <p className="support__device-name">
          About <Link to={`/data/${encodeURIComponent(device.deviceid)}`}>{device.name}</Link>{' '}
          <span className="support__device-id">{device.deviceid}</span>
        </p>
        <p className="support__device-text">
          {device.attachment
            ? supportAttachmentText(device.attachment)
            : "The device's details go with your request as far as your role on it allows."}
        </p>
      </div>
    </div>
  );
}

function SupportForm({
  device,
  onSent,
}: {
  device: SupportDevice | null;
  onSent: (answer: SupportRequestResponse) => void;
}) {
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const touched = useTouched();
  const send = useSendSupportRequest();
  const errors = supportRequestErrors({ subject, message });
  // A field's message shows once it was left with text in it, or on Send (leaving an empty field
  // says nothing yet: the message would move the button being clicked).
  const shown = (field: 'subject' | 'message') => (touched.isShown(field) ? errors[field] : null);
  const serverError = send.isError ? mutationErrorMessage(send.error) : null;
  const edited = () => {
    if (send.isError) send.reset();
  };
  const remaining = SUPPORT_LIMITS.messageMax - message.trim().length;
  const messageHint = `${message.trim().length.toLocaleString('en')} of ${SUPPORT_LIMITS.messageMax.toLocaleString('en')} characters${remaining < 0 ? ' (too long)' : ''}. Say what you expected and what happened.`;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    touched.touchAll();
    if (errors.subject || errors.message) {
      document.getElementById(errors.subject ? SUBJECT.input : MESSAGE.input)?.focus();
      return;
    }
    send.mutate(
      { subject: subject.trim(), message: message.trim(), ...(device ? { deviceid: device.deviceid } : {}) },
      { onSuccess: onSent },
    );
  };

  return (
    <section className="card support__card" aria-label="Support request">
      <form className="support__form" onSubmit={onSubmit} noValidate aria-busy={send.isPending}>
        {device && <DeviceNote device={device} />}
        <FormField ids={SUBJECT} label="Subject" error={shown('subject')}>
          <InputText
            id={SUBJECT.input}
            className="support__subject"
            value={subject}
            onChange={(event) => {
              setSubject(event.target.value);
              edited();
            }}
            onBlur={subject === '' ? undefined : touched.touch('subject')}
            invalid={Boolean(shown('subject'))}
            aria-invalid={Boolean(shown('subject')) || undefined}
            aria-describedby={describedBy(SUBJECT, undefined, shown('subject'))}
            autoComplete="off"
            autoFocus
          />
        </FormField>
        <FormField ids={MESSAGE} label="Message" hint={messageHint} error={shown('message')}>
          <InputTextarea
            id={MESSAGE.input}
            className="support__message"
            value={message}
            rows={8}
            onChange={(event) => {
              setMessage(event.target.value);
              edited();
            }}
            onBlur={message === '' ? undefined : touched.touch('message')}
            invalid={Boolean(shown('message'))}
            aria-invalid={Boolean(shown('message')) || undefined}
            aria-describedby={describedBy(MESSAGE, messageHint, shown('message'))}
          />
        </FormField>
        {serverError && <Message severity="error" text={serverError} className="support__error" role="alert" />}
        <div className="form-actions support__actions">
          <Link
            to={device ? `/data/${encodeURIComponent(device.deviceid)}` : '/'}
            className="p-button p-button-text support__cancel"
          >
            Cancel
          </Link>
          <Button
            type="submit"
            label={send.isPending ? 'Sending…' : 'Send'}
            icon="pi pi-send"
            loading={send.isPending}
          />
        </div>
      </form>
    </section>
  );
}

function SupportSent({
  answer,
  device,
  onAnother,
}: {
  answer: SupportRequestResponse;
  device: SupportDevice | null;
  onAnother: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card support__sent" aria-labelledby="support-sent-title">
      <i className="pi pi-check-circle support__sent-icon" aria-hidden="true" />
      <h2 id="support-sent-title" className="support__sent-title" ref={heading} tabIndex={-1}>
        Request sent
      </h2>
      <p role="status">{answer.message}</p>
      {answer.attached !== 'none' && device && (
        <p className="muted">
          About {device.name} ({device.deviceid}): {supportAttachmentText(answer.attached)}
        </p>
      )}
      <div className="form-actions support__sent-actions">
        <Button type="button" label="Send another request" className="p-button-outlined" onClick={onAnother} />
        <Link className="p-button" to={device ? `/data/${encodeURIComponent(device.deviceid)}` : '/'}>
          {device ? `Back to ${device.name}` : 'Go to home'}
        </Link>
      </div>
    </section>
  );
}

/** The page while the device's settings load: the heading, and the form's shape. */
export function SupportSkeleton() {
  return (
    <div className="page support" aria-busy="true" role="status" aria-label="Loading the support page">
      <header className="page-header">
        <h1 className="page-title">Support</h1>
      </header>
      <div className="card skeleton-stack support__card">
        <div className="skeleton skeleton--row" />
        <div className="skeleton skeleton--label" />
        <div className="skeleton skeleton--input" />
        <div className="skeleton skeleton--label" />
        <div className="skeleton support__skeleton-message" />
      </div>
    </div>
  );
}
