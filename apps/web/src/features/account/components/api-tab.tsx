/**
 * The Account page's API tab (issue 16, default brand only: BRD-11): the user's API keys (bearer
 * credentials), listed with their access, expiry and last use; a new key's secret is shown once,
 * with a copy button; deleting one asks first. A short explanation and a curl example lead to the
 * API reference.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { LoadError, LoadingLines } from '@/components/ui/load-states';
import { InputText } from 'primereact/inputtext';
import { RadioButton } from 'primereact/radiobutton';
import {
  API_CREDENTIALS_MAX,
  API_CREDENTIAL_MESSAGES,
  API_CREDENTIAL_NAME_MAX_LENGTH,
  curlExample,
  loadErrorDetail,
  type ApiAccess,
  type ApiCredential,
  type ApiCredentialCreated,
} from '@portal/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { LabelledDropdown } from '@/components/ui/labelled-dropdown';
import { LocalTime } from '@/components/ui/local-time';
import { RefreshButton } from '@/components/ui/refresh-button';
import { useTouched } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useApiCredentials, useCreateApiCredential, useDeleteApiCredential } from '../api/api-credentials';
import './api-tab.css';

/** Where the API reference (the OpenAPI page) is served. */
export const API_REFERENCE_PATH = '/api/docs';

const DAY_S = 86_400;
const EXPIRY_CHOICES = [
  { label: 'Never', value: 0 },
  { label: 'In 30 days', value: 30 },
  { label: 'In 90 days', value: 90 },
  { label: 'In 1 year', value: 365 },
];

const ACCESS_TEXT: Record<ApiAccess, string> = { 'read-only': 'Read-only', 'read-write': 'Read and write' };

export function ApiTab() {
  const [created, setCreated] = useState<ApiCredentialCreated | null>(null);
  return (
    <div className="api-tab">
      <ApiIntro />
      {created && <NewKeyPanel created={created} onDone={() => setCreated(null)} />}
      <CreateKeySection onCreated={setCreated} />
      <KeysSection />
    </div>
  );
}

function ApiIntro() {
  return (
    <section className="api-section" aria-labelledby="api-intro-heading">
      <h2 id="api-intro-heading" className="api-section__title">
        API access
      </h2>
      <p className="api-text">
        An API key lets a script call the portal&apos;s API as you, with the same access to your devices and groups.
        Send it in the <code>Authorization</code> header. A read-only key can only read; no key can change your
        password, multi-factor or session settings, nor reach a device on the Basic plan.
      </p>
      {/* named by its caption: a pre element may not carry an aria-label */}
      <figure className="api-example-figure">
        <figcaption className="visually-hidden">Example request</figcaption>
        <pre className="api-example">
          <code>{curlExample(location.origin)}</code>
        </pre>
      </figure>
      <p className="api-text">
        <a href={API_REFERENCE_PATH} target="_blank" rel="noreferrer">
          API reference <i className="pi pi-external-link" aria-hidden="true" />
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>{' '}
        lists every call, with the virtual devices a script can create and feed.
      </p>
    </section>
  );
}

/** The secret of a key just created: shown this once, with a copy button. */
function NewKeyPanel({ created, onDone }: { created: ApiCredentialCreated; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  // The panel opens above the form that made it: bring it into view and move the focus to it.
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'center' });
    heading.current?.focus();
  }, [created.id]);
  return (
    <section className="api-new-key" role="status" aria-labelledby="api-new-key-heading">
      <h2 id="api-new-key-heading" className="api-section__title" ref={heading} tabIndex={-1}>
        <i className="pi pi-key" aria-hidden="true" /> Your new key &ldquo;{created.name}&rdquo;
      </h2>
      <p className="api-new-key__warning">
        <i className="pi pi-exclamation-triangle" aria-hidden="true" /> Copy it now and keep it somewhere safe: it will
        not be shown again. Anyone with it can act as you.
      </p>
      <div className="api-new-key__secret">
        {/* the name in text: a code element may not carry an aria-label */}
        <span className="visually-hidden">New API key: </span>
        <code>{created.key}</code>
        <Button
          type="button"
          icon={copied ? 'pi pi-check' : 'pi pi-copy'}
          label={copied ? 'Copied' : 'Copy'}
          outlined
          size="small"
          onClick={() => void navigator.clipboard?.writeText(created.key).then(() => setCopied(true))}
        />
      </div>
      <div className="form-actions">
        <Button type="button" label="Done" onClick={onDone} />
      </div>
    </section>
  );
}

const NAME = fieldIds('api-key-name');
const EXPIRY = fieldIds('api-key-expiry');
const NAME_HINT = `What the key is for (up to ${API_CREDENTIAL_NAME_MAX_LENGTH} characters).`;

function nameError(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return API_CREDENTIAL_MESSAGES.nameRequired;
  if (trimmed.length > API_CREDENTIAL_NAME_MAX_LENGTH) return API_CREDENTIAL_MESSAGES.nameTooLong;
  return undefined;
}

function CreateKeySection({ onCreated }: { onCreated: (created: ApiCredentialCreated) => void }) {
  const list = useApiCredentials();
  const create = useCreateApiCredential();
  const dialog = useMessageDialog();
  const touched = useTouched();
  const [name, setName] = useState('');
  const [access, setAccess] = useState<ApiAccess>('read-only');
  const [days, setDays] = useState(0);

  const full = (list.data?.credentials.length ?? 0) >= API_CREDENTIALS_MAX;
  const invalid = nameError(name);
  const shownError = touched.isShown('name') ? invalid : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    touched.touchAll();
    if (invalid || create.isPending || full) return;
    const expiresAt = days > 0 ? Math.floor(Date.now() / 1000) + days * DAY_S : undefined;
    create.mutate(
      { name: name.trim(), access, ...(expiresAt !== undefined ? { expiresAt } : {}) },
      {
        onSuccess: (answer) => {
          setName('');
          setAccess('read-only');
          setDays(0);
          touched.reset();
          onCreated(answer);
        },
        onError: (error) => dialog.showError(error),
      },
    );
  };

  return (
    <section className="api-section" aria-labelledby="api-create-heading">
      <h2 id="api-create-heading" className="api-section__title">
        Create a key
      </h2>
      {full ? (
        <p className="muted">{API_CREDENTIAL_MESSAGES.tooMany}</p>
      ) : (
        <form className="api-form" onSubmit={submit} noValidate>
          <FormField ids={NAME} label="Name" hint={NAME_HINT} error={shownError}>
            <InputText
              id={NAME.input}
              value={name}
              maxLength={API_CREDENTIAL_NAME_MAX_LENGTH + 10}
              placeholder="e.g. Nightly export"
              autoComplete="off"
              onChange={(event) => setName(event.target.value)}
              onBlur={touched.touch('name')}
              invalid={Boolean(shownError)}
              aria-describedby={describedBy(NAME, NAME_HINT, shownError)}
            />
          </FormField>
          <fieldset className="api-form__access">
            <legend className="form-field__label">Access</legend>
            {(['read-only', 'read-write'] as const).map((level) => (
              <div key={level} className="api-form__radio">
                <RadioButton
                  inputId={`api-key-access-${level}`}
                  name="api-key-access"
                  value={level}
                  checked={access === level}
                  onChange={() => setAccess(level)}
                />
                <label htmlFor={`api-key-access-${level}`}>
                  {ACCESS_TEXT[level]}
                  <span className="muted">
                    {level === 'read-only' ? ' (GET calls only)' : ' (every call a session may make)'}
                  </span>
                </label>
              </div>
            ))}
          </fieldset>
          <FormField ids={EXPIRY} label="Expires">
            <LabelledDropdown
              inputId={EXPIRY.input}
              label="Expires"
              value={days}
              options={EXPIRY_CHOICES}
              onChange={(event) => setDays(Number(event.value))}
              className="api-form__expiry"
            />
          </FormField>
          <div className="form-actions">
            <Button type="submit" label="Create key" icon="pi pi-plus" loading={create.isPending} />
          </div>
        </form>
      )}
    </section>
  );
}

function isExpired(credential: ApiCredential): boolean {
  return credential.expires !== null && credential.expires * 1000 <= Date.now();
}

function KeysSection() {
  const query = useApiCredentials();
  const remove = useDeleteApiCredential();
  const dialog = useMessageDialog();
  const [deleting, setDeleting] = useState<ApiCredential | null>(null);
  const rows = query.data?.credentials ?? [];

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => setDeleting(null),
      onError: (error) => {
        setDeleting(null);
        dialog.showError(error);
      },
    });
  };

  return (
    <section className="api-section" aria-labelledby="api-keys-heading">
      <div className="api-section__head">
        <h2 id="api-keys-heading" className="api-section__title">
          Your keys
          {query.data && (
            <span className="api-section__count muted">
              {' '}
              ({rows.length} of {API_CREDENTIALS_MAX})
            </span>
          )}
        </h2>
        <RefreshButton fetching={query.isFetching} onRefresh={() => void query.refetch()} />
      </div>
      {query.isError && !query.data ? (
        <LoadError message={loadErrorDetail(query.error)} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <LoadingLines label="Loading your API keys" count={3} />
      ) : rows.length === 0 ? (
        <p className="muted">You have no API keys yet. Create one above to use the API from a script.</p>
      ) : (
        <div className="data-table-wrap">
          <table className="data-table api-keys-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Access</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <td data-label="Name" className="api-keys-table__name">
                    {c.name}
                  </td>
                  <td data-label="Access">{ACCESS_TEXT[c.access]}</td>
                  <td data-label="Key">
                    <code>{c.hint}…</code>
                  </td>
                  <td data-label="Created">
                    <LocalTime ts={c.created} />
                  </td>
                  <td data-label="Expires">
                    {c.expires === null ? (
                      'Never'
                    ) : isExpired(c) ? (
                      <span className="api-keys-table__expired">
                        Expired <LocalTime ts={c.expires} />
                      </span>
                    ) : (
                      <LocalTime ts={c.expires} />
                    )}
                  </td>
                  <td data-label="Last used">{c.lastUsed === null ? 'Never' : <LocalTime ts={c.lastUsed} />}</td>
                  <td className="api-keys-table__actions">
                    <Button
                      type="button"
                      icon="pi pi-trash"
                      label="Delete"
                      text
                      severity="danger"
                      size="small"
                      aria-label={`Delete API key ${c.name}`}
                      onClick={() => setDeleting(c)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        visible={deleting !== null}
        header="Delete API key"
        confirmLabel="Delete key"
        confirmIcon="pi pi-trash"
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      >
        <p>
          Delete the key &ldquo;{deleting?.name}&rdquo;? Scripts using it stop working at once. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
