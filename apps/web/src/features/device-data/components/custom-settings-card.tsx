/**
 * The script's custom settings (spec 2 sections 3, 5 and 8): num* values must be numbers, str*
 * values are text; a change is queued for the device's next contact. Editable with
 * accessCustomSettings; an OPERATOR only those marked operatorEditable (the server checks too).
 */
import { useState } from 'react';
import { customSettingError } from '@portal/core';
import { useMessageDialog } from '@/lib/message-dialog';
import { useQueueCustomSettings } from '../api/device-actions';

export interface CustomSetting {
  key: string;
  /** Its display name (core keyDisplayName); the key is shown beside it when they differ. */
  label: string;
  value: unknown;
  pending: unknown;
  editable: boolean;
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

export function CustomSettingsCard({ deviceid, settings }: { deviceid: string; settings: readonly CustomSetting[] }) {
  return (
    <section
      id="dp-custom"
      className="card dp-card dp-card--wide"
      aria-labelledby="dp-custom-title"
      data-dp-index="Custom Settings"
    >
      <h2 id="dp-custom-title" className="dp-card-title">
        Custom Settings
      </h2>
      <div className="dp-custom-list">
        {settings.map((s) => (
          <CustomSettingRow key={s.key} deviceid={deviceid} setting={s} />
        ))}
      </div>
    </section>
  );
}

function CustomSettingRow({ deviceid, setting }: { deviceid: string; setting: CustomSetting }) {
  const current = setting.pending !== undefined ? setting.pending : setting.value;
  const [draft, setDraft] = useState(text(current));
  const [error, setError] = useState<string | null>(null);
  const queue = useQueueCustomSettings(deviceid);
  const messages = useMessageDialog();
  const id = `dp-custom-${setting.key}`;
  const changed = draft !== text(current);

  const save = () => {
    const problem = customSettingError(setting.key, draft);
    setError(problem);
    if (problem) return;
    const value = setting.key.startsWith('num') ? Number(draft.trim()) : draft;
    queue.mutate(
      { [setting.key]: value },
      { onSuccess: (answer) => messages.showSuccess(answer), onError: (e) => messages.showError(e) },
    );
  };

  return (
    <form
      className="dp-custom-row"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label htmlFor={id} className="dp-custom-label" title={setting.key}>
        <span>{setting.label}</span>
        {setting.label !== setting.key && <span className="dp-card-key">{setting.key}</span>}
        {setting.pending !== undefined && <span className="dp-pending">pending</span>}
      </label>
      <div className="dp-custom-input">
        <input
          id={id}
          className="p-inputtext p-component p-inputtext-sm"
          value={draft}
          inputMode={setting.key.startsWith('num') ? 'decimal' : 'text'}
          disabled={!setting.editable}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
        />
        {setting.editable && (
          <button type="submit" className="p-button p-button-sm" disabled={!changed || queue.isPending}>
            Save
          </button>
        )}
      </div>
      {error && (
        <small id={`${id}-error`} className="field-error" role="alert">
          {error}
        </small>
      )}
    </form>
  );
}
