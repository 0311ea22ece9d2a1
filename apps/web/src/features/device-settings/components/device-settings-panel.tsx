/**
 * The Settings page's config form (spec 2 sections 3, 6, 8; ledger SUB-02 to SUB-11): the device
 * config by section, each value with its type, range and unit; pending values tagged with the
 * applied value beside them and when the change was queued and sent; Save sends only what changed
 * (checked first by the same core schema as the server) and watches the device apply it. Only
 * ADMIN and USER edit (editDeviceSettings); the others read. The server decides every call again.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { Button } from 'primereact/button';
import {
  CONFIG_LOAD_ERROR,
  DEVICE_CONFIG_MESSAGES,
  DEVICE_CONFIG_SECTIONS,
  configChange,
  configFieldKey,
  configValueChanged,
  deviceConfigView,
  firmwareParts,
  mutationErrorMessage,
  readConfigValue,
  type ConfigField as ConfigFieldDescriptor,
  type ConfigFieldValue,
  type DeviceAccess,
  type DeviceConfigSectionKey,
} from '@portal/core';
import { LocalTime } from '@/components/ui/local-time';
import { useMessageDialog } from '@/lib/message-dialog';
import { useDeviceConfig } from '../api/get-device-config';
import { useUpdateDeviceConfig } from '../api/put-device-config';
import { ConfigField } from './config-field';
import './device-settings.css';

export interface DeviceSettingsPanelProps {
  deviceid: string;
  access: Pick<DeviceAccess, 'editDeviceSettings'>;
}

type Notice = 'queued' | 'applied' | null;

export function DeviceSettingsPanel({ deviceid, access }: DeviceSettingsPanelProps) {
  const [watching, setWatching] = useState(false);
  const config = useDeviceConfig(deviceid, watching);
  const update = useUpdateDeviceConfig(deviceid);
  const messages = useMessageDialog();
  const [edits, setEdits] = useState<Record<string, ConfigFieldValue>>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [open, setOpen] = useState<ReadonlySet<string> | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const editable = access.editDeviceSettings;
  const data = config.data;
  const view = useMemo(() => (data ? deviceConfigView(data.config, data.pending) : null), [data]);

  // Once the device has acknowledged what was saved here, say so and stop asking.
  useEffect(() => {
    if (watching && data && data.pending === null) {
      setWatching(false);
      setNotice('applied');
    }
  }, [watching, data]);

  // A failed config stays said while it is fetched again (its status is pending then).
  if (!data && config.errorUpdateCount > 0 && (config.isError || config.isFetching)) {
    return (
      <section className="card cfg-state" role="alert">
        <i className="pi pi-exclamation-triangle cfg-state__icon" aria-hidden="true" />
        <p className="cfg-state__message">{CONFIG_LOAD_ERROR}</p>
        <Button
          type="button"
          label="Try again"
          className="p-button-outlined"
          loading={config.isFetching}
          onClick={() => void config.refetch()}
        />
      </section>
    );
  }
  if (!data || !view) {
    return (
      <div className="card cfg-skeleton" role="status" aria-label="Loading the device settings">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="skeleton skeleton--row" />
        ))}
      </div>
    );
  }

  const change = configChange(view.fields, view.base, edits);
  const errorKeys = Object.keys(change.errors);
  const valueOf = (key: string): ConfigFieldValue => (key in edits ? (edits[key] ?? null) : (view.base[key] ?? null));
  const openSections =
    open ??
    new Set<string>([
      'device',
      ...view.fields.filter((f) => view.pendingKeys.has(configFieldKey(f))).map((f) => f.section),
    ]);

  const setValue = (key: string, value: ConfigFieldValue) => {
    setNotice(null);
    update.reset();
    setEdits((prev) => ({ ...prev, [key]: value }));
  };
  const toggle = (section: string, isOpen: boolean) => {
    if (openSections.has(section) === isOpen) return;
    const next = new Set(openSections);
    if (isOpen) next.add(section);
    else next.delete(section);
    setOpen(next);
  };
  const discard = () => {
    setEdits({});
    update.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!editable || change.changed.length === 0 || update.isPending) return;
    if (errorKeys.length > 0) {
      // Open the sections holding a flagged value and go to the first.
      const sections = view.fields.filter((f) => errorKeys.includes(configFieldKey(f))).map((f) => f.section);
      setOpen(new Set([...openSections, ...sections]));
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    update.mutate(change.settings, {
      onSuccess: (saved) => {
        setEdits({});
        setNotice('queued');
        setWatching(true);
        messages.showSuccess(saved);
      },
    });
  };

  const { id, model, fw } = view.facts;
  const firmware = firmwareParts(fw);

  return (
    <form
      ref={formRef}
      className={`card cfg-panel${editable ? '' : ' cfg-panel--readonly'}`}
      aria-labelledby="cfg-heading"
      onSubmit={submit}
      noValidate
    >
      <div className="cfg-top">
        <h2 id="cfg-heading" className="cfg-heading">
          Device settings
        </h2>
        {!editable && (
          <p className="cfg-readonly muted">
            <i className="pi pi-lock" aria-hidden="true" /> Read only: only the device&apos;s ADMIN and USER users
            change its settings.
          </p>
        )}
      </div>

      {data.pending && (
        <div className="cfg-pending-note" role="status">
          <span className="cfg-tag cfg-tag--pending">Pending</span>
          <p>
            Changes queued
            {data.pendingSince && (
              <>
                {' '}
                <LocalTime ts={new Date(data.pendingSince)} />
              </>
            )}
            ;{' '}
            {data.pendingSentAt ? (
              <>
                sent to the device <LocalTime ts={new Date(data.pendingSentAt)} />
              </>
            ) : (
              'not yet sent to the device'
            )}
            . They are pushed next time the device makes contact and show as applied once the device acknowledges them.
          </p>
        </div>
      )}

      <fieldset className="cfg-all" disabled={!editable}>
        <legend className="visually-hidden">Device configuration</legend>
        {DEVICE_CONFIG_SECTIONS.map((section) => {
          const fields = view.fields.filter((f) => f.section === section.key);
          const keys = fields.map(configFieldKey);
          const pendingCount = keys.filter((k) => view.pendingKeys.has(k)).length;
          const editedCount = keys.filter((k) => change.changed.includes(k)).length;
          return (
            <details
              key={section.key}
              className="cfg-section"
              open={openSections.has(section.key)}
              onToggle={(e) => toggle(section.key, e.currentTarget.open)}
            >
              <summary className="cfg-summary">
                <span className="cfg-summary__title">{section.title}</span>
                {pendingCount > 0 && <span className="cfg-tag cfg-tag--pending">Pending</span>}
                {editedCount > 0 && (
                  <span className="cfg-tag cfg-tag--edited">
                    {editedCount === 1 ? '1 change' : `${editedCount} changes`}
                  </span>
                )}
              </summary>
              <div className="cfg-section__body">
                {section.key === 'device' && (
                  <dl className="cfg-facts">
                    <div>
                      <dt>Device id</dt>
                      <dd>{id ?? deviceid}</dd>
                    </div>
                    <div>
                      <dt>Model</dt>
                      <dd>{model ?? 'Not reported'}</dd>
                    </div>
                    <div>
                      <dt>Firmware</dt>
                      <dd>
                        {fw ?? 'Not reported'}
                        {firmware && (
                          <span className="muted">
                            {' '}
                            (doc {firmware.doc}, version {firmware.version})
                          </span>
                        )}
                      </dd>
                    </div>
                  </dl>
                )}
                {fields.length === 0 ? (
                  <p className="muted cfg-empty">
                    {section.key === 'script'
                      ? "The device's script has no custom values (num* or str*)."
                      : 'Nothing to set here.'}
                  </p>
                ) : (
                  <SectionFields
                    section={section.key}
                    fields={fields}
                    render={(field) => {
                      const key = configFieldKey(field);
                      const value = valueOf(key);
                      return (
                        <ConfigField
                          key={key}
                          field={field}
                          fieldKey={key}
                          value={value}
                          applied={
                            readConfigValue(data.config.settings, field.path) === undefined
                              ? undefined
                              : (view.applied[key] ?? null)
                          }
                          pending={view.pendingKeys.has(key)}
                          edited={key in edits && configValueChanged(field, view.base[key] ?? null, value)}
                          error={change.errors[key]}
                          raw={
                            readConfigValue(data.pending?.settings, field.path) ??
                            readConfigValue(data.config.settings, field.path)
                          }
                          onChange={setValue}
                        />
                      );
                    }}
                  />
                )}
              </div>
            </details>
          );
        })}
      </fieldset>

      {editable && (
        <div className="cfg-actions">
          <div className="cfg-status">
            {update.isError ? (
              <p className="cfg-status__error" role="alert">
                <i className="pi pi-exclamation-circle" aria-hidden="true" /> {mutationErrorMessage(update.error)}
              </p>
            ) : change.errors[''] ? (
              <p className="cfg-status__error" role="alert">
                {change.errors['']}
              </p>
            ) : null}
            <p role="status" className="cfg-status__text">
              {notice === 'queued'
                ? DEVICE_CONFIG_MESSAGES.queued
                : notice === 'applied'
                  ? 'The device has applied the change.'
                  : errorKeys.length > 0
                    ? 'Correct the values marked in red before saving.'
                    : change.changed.length > 0
                      ? `${change.changed.length === 1 ? '1 change' : `${change.changed.length} changes`} not saved yet.`
                      : 'No changes.'}
            </p>
          </div>
          <div className="cfg-buttons">
            <Button
              type="button"
              label="Reset"
              icon="pi pi-undo"
              className="p-button-outlined"
              disabled={Object.keys(edits).length === 0 || update.isPending}
              onClick={discard}
            />
            <Button
              type="submit"
              label="Save"
              icon="pi pi-check"
              disabled={change.changed.length === 0}
              loading={update.isPending}
            />
          </div>
        </div>
      )}
    </form>
  );
}

/** A section's fields; the inputs' channels each in a fieldset named for the channel ('Analog 1'). */
function SectionFields({
  section,
  fields,
  render,
}: {
  section: DeviceConfigSectionKey;
  fields: ConfigFieldDescriptor[];
  render: (field: ConfigFieldDescriptor) => ReactElement;
}) {
  const groups: { name: string | null; fields: ConfigFieldDescriptor[] }[] = [];
  for (const field of fields) {
    const name = field.group ?? null;
    const last = groups.at(-1);
    if (last && last.name === name) last.fields.push(field);
    else groups.push({ name, fields: [field] });
  }
  return (
    <div className={`cfg-groups cfg-groups--${section}`}>
      {groups.map((group, i) =>
        group.name === null ? (
          <div key={i} className="cfg-fields">
            {group.fields.map(render)}
          </div>
        ) : (
          <fieldset key={group.name} className="cfg-group">
            <legend>{group.name}</legend>
            <div className="cfg-fields">{group.fields.map(render)}</div>
          </fieldset>
        ),
      )}
    </div>
  );
}
