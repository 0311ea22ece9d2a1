/**
 * /sqprov/{deviceid} (STAFF-02, STAFF-07, STAFF-10): the device's provisioning record
 * (prov-portal-get-device), editing its model, firmware, name and brand (prov-portal-edit-device), its
 * label, a provisioning test run (prov-portal-run-test) and the provisioning log
 * (prov-portal-get-device-log, never stale: read again after an action that writes to it and by
 * Refresh) with a form to add an entry (prov-portal-add-device-log).
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { useQueryClient } from '@tanstack/react-query';
import {
  BRANDS,
  DEVICE_MESSAGES,
  ProvEditDeviceBodySchema,
  ProvLogBodySchema,
  ProvRunTestBodySchema,
  loadErrorDetail,
  mutationErrorMessage,
  type BrandId,
  type CommandView,
  type DeviceModel,
  type ProvDevice,
} from '@portal/core';
import { Age } from '@/components/ui/age';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { LabelledDropdown } from '@/components/ui/labelled-dropdown';
import { LocalTime } from '@/components/ui/local-time';
import { NotFoundScreen } from '@/components/ui/not-found-screen';
import { RefreshButton } from '@/components/ui/refresh-button';
import { ApiError } from '@/lib/api';
import { useEditProvDevice, useProvDevice } from '../api/prov-device';
import { refreshProvLog, useAddProvLog, useProvLog } from '../api/prov-log';
import { useRunProvTest } from '../api/run-prov-test';
import { LabelActions, MODEL_OPTIONS, issuesByField } from './prov-bits';
import { BrandField } from './brand-field';
import './provisioning.css';
import { usePageTitle } from '@/lib/page-title';

export function ProvDevicePage({ deviceid }: { deviceid: string }) {
  const device = useProvDevice(deviceid);
  usePageTitle('Provisioning', deviceid);

  if (device.isPending) return <ProvDeviceSkeleton />;
  if (device.isError) {
    if (device.error instanceof ApiError && device.error.status === 404)
      return (
        <NotFoundScreen
          title={DEVICE_MESSAGES.notFound}
          moreActions={
            <Link className="p-button p-button-outlined" to="/sqprov">
              Back to provisioning
            </Link>
          }
        >
          No device has the id {deviceid}. Create it on the provisioning page.
        </NotFoundScreen>
      );
    return (
      <div className="page prov">
        <div className="card prov-card" role="alert">
          <p>{loadErrorDetail(device.error)}</p>
          <Button type="button" label="Retry" icon="pi pi-refresh" onClick={() => void device.refetch()} />
        </div>
      </div>
    );
  }
  const record = device.data;
  return (
    <div className="page prov">
      <header className="page-header prov-header">
        <Link to="/sqprov" className="prov-back">
          <i className="pi pi-arrow-left" aria-hidden="true" /> Provisioning
        </Link>
        <h1 className="page-title">
          {record.name !== record.deviceid ? record.name : 'Device'}{' '}
          <span className="prov-mono">{record.deviceid}</span>
        </h1>
        <p className="page-subtitle">
          {record.model} · {record.fw} · {record.added ? 'added by a customer' : 'not added by a customer yet'}
        </p>
      </header>
      <div className="prov-columns">
        <div className="prov-column">
          <RecordCard device={record} />
          <RunTestCard device={record} />
        </div>
        <div className="prov-column">
          <LogCard deviceid={record.deviceid} />
        </div>
      </div>
    </div>
  );
}

function ProvDeviceSkeleton() {
  return (
    <div className="page prov" aria-busy="true" role="status" aria-label="Loading">
      <div className="skeleton skeleton--title" />
      {[0, 1].map((i) => (
        <div key={i} className="card skeleton-stack">
          <div className="skeleton skeleton--label" />
          <div className="skeleton skeleton--row" />
          <div className="skeleton skeleton--row" />
        </div>
      ))}
    </div>
  );
}

const MODEL = fieldIds('prov-edit-model');
const FW = fieldIds('prov-edit-fw');
const NAME = fieldIds('prov-edit-name');
const BRAND = fieldIds('prov-edit-brand');

function RecordCard({ device }: { device: ProvDevice }) {
  const edit = useEditProvDevice();
  const [model, setModel] = useState<DeviceModel>(device.model);
  const [fw, setFw] = useState(device.fw);
  const [name, setName] = useState(device.name);
  const [brand, setBrand] = useState<BrandId>(device.brand);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const changed = model !== device.model || fw !== device.fw || name !== device.name || brand !== device.brand;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const body = ProvEditDeviceBodySchema.safeParse({
      model,
      fw,
      brand,
      ...(name.trim() && name !== device.name ? { name: name.trim() } : {}),
    });
    setErrors(body.success ? {} : issuesByField(body.error.issues));
    if (!body.success) return;
    edit.mutate(
      { deviceid: device.deviceid, body: body.data },
      {
        onSuccess: (answer) => {
          setSaved(true);
          setName(answer.name);
        },
      },
    );
  };

  return (
    <section className="card prov-card" aria-labelledby="prov-record-title">
      <h2 id="prov-record-title" className="card__title">
        Record
      </h2>
      <dl className="prov-facts">
        <dt>Device ID</dt>
        <dd className="prov-mono">{device.deviceid}</dd>
        <dt>Family</dt>
        <dd>{device.family}</dd>
        <dt>Plan</dt>
        <dd>{device.tier}</dd>
        <dt>Brand</dt>
        <dd>{BRANDS[device.brand].name}</dd>
        <dt>Added by a customer</dt>
        <dd>{device.added ? 'Yes (provisioning lock)' : 'No'}</dd>
        <dt>Created</dt>
        <dd>
          <LocalTime ts={new Date(device.createdAt)} />
        </dd>
        <dt>Last contact</dt>
        <dd>{device.lastContact === null ? 'Never' : <Age ts={device.lastContact} nowMs={Date.now()} />}</dd>
      </dl>
      <form className="prov-form" onSubmit={onSubmit} noValidate aria-label="Edit the device">
        <div className="prov-form__grid">
          <FormField ids={MODEL} label="Model" error={errors.model}>
            <LabelledDropdown
              inputId={MODEL.input}
              label="Model"
              value={model}
              options={MODEL_OPTIONS}
              onChange={(e) => setModel(e.value as DeviceModel)}
            />
          </FormField>
          <FormField ids={FW} label="Firmware" error={errors.fw}>
            <InputText
              id={FW.input}
              value={fw}
              onChange={(e) => setFw(e.target.value.trim())}
              aria-describedby={describedBy(FW, undefined, errors.fw)}
              aria-invalid={errors.fw ? true : undefined}
              className="prov-mono"
            />
          </FormField>
          <FormField ids={NAME} label="Name" error={errors.name}>
            <InputText
              id={NAME.input}
              value={name}
              maxLength={40}
              onChange={(e) => setName(e.target.value)}
              aria-describedby={describedBy(NAME, undefined, errors.name)}
              aria-invalid={errors.name ? true : undefined}
            />
          </FormField>
          <BrandField ids={BRAND} value={brand} onChange={setBrand} error={errors.brand} />
        </div>
        {edit.isError && <Message severity="error" text={mutationErrorMessage(edit.error)} className="prov-message" />}
        {saved && !changed && <Message severity="success" text="Saved." className="prov-message" />}
        <div className="prov-actions">
          <Button type="submit" label="Save" icon="pi pi-check" loading={edit.isPending} disabled={!changed} />
        </div>
      </form>
      <h3 className="prov-subtitle">Label</h3>
      <LabelActions deviceid={device.deviceid} publicUrlConfigured={device.publicUrlConfigured} />
    </section>
  );
}

const METHOD = fieldIds('prov-test-method');
const TEST_FW = fieldIds('prov-test-fw');
const CODE = fieldIds('prov-test-code');

function RunTestCard({ device }: { device: ProvDevice }) {
  const runTest = useRunProvTest(device.deviceid);
  const [method, setMethod] = useState('');
  const [fw, setFw] = useState(device.fw);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [queued, setQueued] = useState<CommandView | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setQueued(null);
    const body = ProvRunTestBodySchema.safeParse({
      method: method.trim(),
      fw,
      provLockOverrideCode: device.added ? code.trim() : '',
    });
    const found = body.success ? {} : issuesByField(body.error.issues);
    if (device.added && !code.trim())
      found.provLockOverrideCode = 'The setup password is required for a device a customer has added';
    setErrors(found);
    if (!body.success || Object.keys(found).length > 0) return;
    runTest.mutate(body.data, { onSuccess: setQueued });
  };

  return (
    <section className="card prov-card" aria-labelledby="prov-test-title">
      <h2 id="prov-test-title" className="card__title">
        Provisioning test
      </h2>
      <p className="prov-muted">
        Queues the command Prov.RunTest for the device; it runs when the device next connects. The request is written to
        the log.
      </p>
      <form className="prov-form" onSubmit={onSubmit} noValidate aria-label="Run a provisioning test">
        <div className="prov-form__grid">
          <FormField ids={METHOD} label="Test" hint="For example SelfTest" error={errors.method}>
            <InputText
              id={METHOD.input}
              value={method}
              onChange={(e) => setMethod(e.target.value)}
              aria-describedby={describedBy(METHOD, 'hint', errors.method)}
              aria-invalid={errors.method ? true : undefined}
            />
          </FormField>
          <FormField ids={TEST_FW} label="Firmware" error={errors.fw}>
            <InputText
              id={TEST_FW.input}
              value={fw}
              onChange={(e) => setFw(e.target.value.trim())}
              aria-describedby={describedBy(TEST_FW, undefined, errors.fw)}
              aria-invalid={errors.fw ? true : undefined}
              className="prov-mono"
            />
          </FormField>
          {device.added && (
            <FormField
              ids={CODE}
              label="Setup password (lock override)"
              hint="A customer has added this device: confirm with its setup password"
              error={errors.provLockOverrideCode}
            >
              <InputText
                id={CODE.input}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                aria-describedby={describedBy(CODE, 'hint', errors.provLockOverrideCode)}
                aria-invalid={errors.provLockOverrideCode ? true : undefined}
                className="prov-mono"
                autoComplete="off"
              />
            </FormField>
          )}
        </div>
        {runTest.isError && (
          <Message severity="error" text={mutationErrorMessage(runTest.error)} className="prov-message" />
        )}
        {queued && (
          <Message
            severity="success"
            className="prov-message"
            content={
              <span data-testid="prov-test-queued">
                Command {queued.commandID} queued: <code>{queued.method}</code>{' '}
                <code>{JSON.stringify(queued.args)}</code> ({queued.state})
              </span>
            }
          />
        )}
        <div className="prov-actions">
          <Button type="submit" label="Run test" icon="pi pi-play" loading={runTest.isPending} />
        </div>
      </form>
    </section>
  );
}

const ENTRY = fieldIds('prov-log-entry');

function LogCard({ deviceid }: { deviceid: string }) {
  const queryClient = useQueryClient();
  const log = useProvLog(deviceid);
  const add = useAddProvLog(deviceid);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [refreshing, setRefreshing] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = ProvLogBodySchema.safeParse({ message });
    setError(body.success ? null : (body.error.issues[0]?.message ?? 'Invalid entry'));
    if (!body.success) return;
    add.mutate(body.data.message, { onSuccess: () => setMessage('') });
  };
  const onRefresh = () => {
    setRefreshing(true);
    void refreshProvLog(queryClient, deviceid).finally(() => setRefreshing(false));
  };
  const entries = log.data ? [...log.data.entries].reverse() : [];

  return (
    <section className="card prov-card" aria-labelledby="prov-log-title">
      <div className="head-row">
        <h2 id="prov-log-title" className="card__title">
          Provisioning log
        </h2>
        <RefreshButton fetching={refreshing || log.isFetching} onRefresh={onRefresh} />
      </div>
      <form className="prov-form" onSubmit={onSubmit} noValidate aria-label="Add a log entry">
        <FormField ids={ENTRY} label="New entry" error={error}>
          <InputTextarea
            id={ENTRY.input}
            value={message}
            rows={2}
            autoResize
            maxLength={2000}
            onChange={(e) => setMessage(e.target.value)}
            aria-describedby={describedBy(ENTRY, undefined, error)}
            aria-invalid={error ? true : undefined}
            className="prov-entry"
          />
        </FormField>
        {add.isError && <Message severity="error" text={mutationErrorMessage(add.error)} className="prov-message" />}
        <div className="prov-actions">
          <Button type="submit" label="Add entry" icon="pi pi-plus" loading={add.isPending} />
        </div>
      </form>
      {log.isPending ? (
        <div className="skeleton-stack" aria-busy="true" aria-label="Loading the log">
          <div className="skeleton skeleton--row" />
          <div className="skeleton skeleton--row" />
        </div>
      ) : log.isError ? (
        <Message severity="error" text={loadErrorDetail(log.error)} className="prov-message" />
      ) : (
        <ol className="prov-log" aria-label="Provisioning log entries">
          {entries.length === 0 && <li className="prov-muted">No entries yet.</li>}
          {entries.map((e) => (
            <li key={e.id} className="prov-log__entry">
              <div className="prov-log__meta">
                <LocalTime ts={new Date(e.ts)} />
                <span>{e.author ?? 'System'}</span>
              </div>
              <p className="prov-log__message">{e.message}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
