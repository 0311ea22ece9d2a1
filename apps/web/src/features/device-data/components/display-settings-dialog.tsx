/**
 * Display Settings of one data key (spec 2 sections 3 and 5): name, units, decimal places,
 * display order, display type and its gauge or digital fields, with the dialog's rules (what is
 * editable for cp and hrs keys, 15-character limits, decimals 0-8, gauge fields required).
 * Saves PORTAL_displaySettings[key] through PUT /api/device/{id}/settings.
 */
import { useState } from 'react';
import { Dialog } from 'primereact/dialog';
import {
  canApplyDraft,
  displayFieldRules,
  displayTypeChoices,
  draftErrors,
  draftFromDisplay,
  mergeDisplaySetting,
  resolveDisplay,
  settingFromDraft,
  type DisplayDraft,
} from '@portal/core';
import { useMessageDialog } from '@/lib/message-dialog';
import { useUpdateDeviceSettings } from '../api/device-settings';

export interface DisplaySettingsDialogProps {
  deviceid: string;
  dataKey: string;
  /** The key's current PORTAL_displaySettings entry (may be absent). */
  setting: unknown;
  /** A value of the key: tells string keys from numeric ones. */
  sample: unknown;
  onHide: () => void;
}

const GAUGE_FIELDS = [
  ['min', 'Min'],
  ['max', 'Max'],
  ['warnLow', 'Warning low'],
  ['warnHigh', 'Warning high'],
  ['alarmLow', 'Alarm low'],
  ['alarmHigh', 'Alarm high'],
] as const;

export function DisplaySettingsDialog({ deviceid, dataKey, setting, sample, onHide }: DisplaySettingsDialogProps) {
  const isString = typeof sample === 'string';
  const [draft, setDraft] = useState<DisplayDraft>(() => draftFromDisplay(resolveDisplay(dataKey, setting, sample)));
  const rules = displayFieldRules(dataKey, isString);
  const choices = displayTypeChoices(dataKey, isString);
  const errors = draftErrors(draft);
  const update = useUpdateDeviceSettings(deviceid);
  const messages = useMessageDialog();
  const set = <K extends keyof DisplayDraft>(field: K, value: DisplayDraft[K]) =>
    setDraft((d) => ({ ...d, [field]: value }));

  const apply = () => {
    if (!canApplyDraft(draft)) return;
    update.mutate(
      {
        PORTAL_displaySettings: { [dataKey]: mergeDisplaySetting(setting, settingFromDraft(dataKey, isString, draft)) },
      },
      { onSuccess: onHide, onError: (error) => messages.showError(error) },
    );
  };
  const field = (id: string) => `ds-${id}`;
  const errorOf = (id: string) =>
    errors[id] ? (
      <small id={`${field(id)}-error`} className="field-error" role="alert">
        {errors[id]}
      </small>
    ) : null;

  return (
    <Dialog
      header={`Display Settings: ${dataKey}`}
      visible
      onHide={onHide}
      className="dp-dialog"
      breakpoints={{ '640px': '100vw' }}
      footer={
        <div className="dp-dialog-footer">
          <button type="button" className="p-button p-button-text" onClick={onHide}>
            Cancel
          </button>
          <button
            type="submit"
            form="display-settings-form"
            className="p-button"
            disabled={!canApplyDraft(draft) || update.isPending}
          >
            {update.isPending ? 'Saving…' : 'Apply'}
          </button>
        </div>
      }
    >
      <form
        id="display-settings-form"
        className="dp-form"
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <div className="dp-field">
          <label htmlFor={field('name')}>Name</label>
          <input
            id={field('name')}
            className="p-inputtext p-component"
            value={draft.name}
            disabled={!rules.nameEditable}
            maxLength={15}
            aria-invalid={Boolean(errors.name)}
            onChange={(e) => set('name', e.target.value)}
          />
          {errorOf('name')}
        </div>
        {!isString && (
          <div className="dp-field">
            <label htmlFor={field('units')}>Units</label>
            <input
              id={field('units')}
              className="p-inputtext p-component"
              value={draft.units}
              disabled={!rules.unitsEditable}
              maxLength={15}
              aria-invalid={Boolean(errors.units)}
              onChange={(e) => set('units', e.target.value)}
            />
            {errorOf('units')}
          </div>
        )}
        {rules.dpVisible && (
          <div className="dp-field">
            <label htmlFor={field('dp')}>Decimal places</label>
            <input
              id={field('dp')}
              className="p-inputtext p-component"
              type="number"
              min={0}
              max={8}
              value={draft.dp}
              onChange={(e) => set('dp', e.target.value)}
            />
            {errorOf('dp')}
          </div>
        )}
        <div className="dp-field">
          <label htmlFor={field('sort')}>Display order (1-100)</label>
          <input
            id={field('sort')}
            className="p-inputtext p-component"
            type="number"
            min={1}
            max={100}
            value={draft.sort}
            onChange={(e) => set('sort', e.target.value)}
          />
          {errorOf('sort')}
        </div>
        {rules.typeVisible && (
          <div className="dp-field">
            <label htmlFor={field('type')}>Display type</label>
            <select
              id={field('type')}
              className="p-inputtext p-component"
              value={draft.displayType}
              onChange={(e) => set('displayType', e.target.value as DisplayDraft['displayType'])}
            >
              {choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
        )}
        <label className="dp-check">
          <input
            type="checkbox"
            checked={draft.showLastReading}
            onChange={(e) => set('showLastReading', e.target.checked)}
          />
          Show the last known reading when the latest record has none
        </label>
        {draft.displayType === 'gauge' && (
          <fieldset className="dp-fieldset">
            <legend>Gauge</legend>
            <div className="dp-field-grid">
              {GAUGE_FIELDS.map(([id, label]) => (
                <div className="dp-field" key={id}>
                  <label htmlFor={field(id)}>{label}</label>
                  <input
                    id={field(id)}
                    className="p-inputtext p-component"
                    inputMode="decimal"
                    value={draft.gauge[id]}
                    aria-invalid={Boolean(errors[id])}
                    required
                    onChange={(e) => set('gauge', { ...draft.gauge, [id]: e.target.value })}
                  />
                  {errorOf(id)}
                </div>
              ))}
            </div>
          </fieldset>
        )}
        {draft.displayType === 'digital' && (
          <fieldset className="dp-fieldset">
            <legend>Digital</legend>
            <div className="dp-field-grid">
              {(
                [
                  ['lowThreshold', 'Low threshold'],
                  ['lowString', 'Low text'],
                  ['highString', 'High text'],
                ] as const
              ).map(([id, label]) => (
                <div className="dp-field" key={id}>
                  <label htmlFor={field(id)}>{label}</label>
                  <input
                    id={field(id)}
                    className="p-inputtext p-component"
                    value={draft.digital[id]}
                    maxLength={id === 'lowThreshold' ? undefined : 15}
                    aria-invalid={Boolean(errors[id])}
                    onChange={(e) => set('digital', { ...draft.digital, [id]: e.target.value })}
                  />
                  {errorOf(id)}
                </div>
              ))}
            </div>
          </fieldset>
        )}
      </form>
    </Dialog>
  );
}
