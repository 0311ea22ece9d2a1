/**
 * Display Settings of one data key (spec 2 sections 3 and 5): name, units, decimal places,
 * display order, the section the card sits in (groupKey, DESIGN.md section 5), display type and
 * its gauge or digital fields, with the dialog's rules (what is editable for cp and hrs keys,
 * 15-character limits, decimals 0-8, gauge fields required). Saves PORTAL_displaySettings[key]
 * through PUT /api/device/{id}/settings.
 */
import { useState, type InputHTMLAttributes } from 'react';
import { Dialog } from 'primereact/dialog';
import {
  OTHER_SECTION,
  SECTION_NAME_MAX_LENGTH,
  canApplyDraft,
  displayFieldRules,
  displayTypeChoices,
  draftErrors,
  draftFromDisplay,
  keyDisplayName,
  measurementSection,
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
  /** The page's section names, suggested for the Section field (core sectionSuggestions). */
  sections?: readonly string[];
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

export function DisplaySettingsDialog({
  deviceid,
  dataKey,
  setting,
  sample,
  sections = [],
  onHide,
}: DisplaySettingsDialogProps) {
  // Where a blank Section puts the card: its catalogue section, else 'Other' (core cardSections).
  const defaultSection = measurementSection(dataKey) ?? OTHER_SECTION;
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
      {
        onSuccess: (saved) => {
          onHide();
          messages.showSuccess(saved);
        },
        onError: (error) => messages.showError(error),
      },
    );
  };
  const field = (id: string) => `ds-${id}`;
  // The key's display name as saved (the catalogue's, or the user's), the key itself beneath it.
  const name = keyDisplayName(dataKey, setting);

  return (
    <Dialog
      header={
        <span className="dp-dialog-heading">
          <span className="dp-dialog-name">Display Settings: {name}</span>
          {name !== dataKey && <span className="dp-dialog-key">{dataKey}</span>}
        </span>
      }
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
        <DraftField
          id="name"
          label="Name"
          value={draft.name}
          error={errors.name}
          disabled={!rules.nameEditable}
          maxLength={15}
          onValue={(v) => set('name', v)}
        />
        {!isString && (
          <DraftField
            id="units"
            label="Units"
            value={draft.units}
            error={errors.units}
            disabled={!rules.unitsEditable}
            maxLength={15}
            onValue={(v) => set('units', v)}
          />
        )}
        {rules.dpVisible && (
          <DraftField
            id="dp"
            label="Decimal places"
            value={draft.dp}
            error={errors.dp}
            type="number"
            min={0}
            max={8}
            onValue={(v) => set('dp', v)}
          />
        )}
        <DraftField
          id="sort"
          label="Display order (1-100)"
          value={draft.sort}
          error={errors.sort}
          type="number"
          min={1}
          max={100}
          onValue={(v) => set('sort', v)}
        />
        <DraftField
          id="section"
          label="Section"
          value={draft.groupKey}
          error={errors.groupKey}
          maxLength={SECTION_NAME_MAX_LENGTH}
          list={field('section-names')}
          placeholder={defaultSection}
          hint={`Cards with the same section sit together on the Data page. Empty: ${defaultSection}.`}
          autoComplete="off"
          onValue={(v) => set('groupKey', v)}
        />
        <datalist id={field('section-names')}>
          {sections.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
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
                <DraftField
                  key={id}
                  id={id}
                  label={label}
                  value={draft.gauge[id]}
                  error={errors[id]}
                  inputMode="decimal"
                  required
                  onValue={(v) => set('gauge', { ...draft.gauge, [id]: v })}
                />
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
                <DraftField
                  key={id}
                  id={id}
                  label={label}
                  value={draft.digital[id]}
                  error={errors[id]}
                  maxLength={id === 'lowThreshold' ? undefined : 15}
                  onValue={(v) => set('digital', { ...draft.digital, [id]: v })}
                />
              ))}
            </div>
          </fieldset>
        )}
      </form>
    </Dialog>
  );
}

type DraftFieldProps = {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  /** A line under the field saying what it does. */
  hint?: string;
  onValue: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>;

/** One labelled field of the dialog, with its hint and its error under it. */
function DraftField({ id, label, value, error, hint, onValue, ...input }: DraftFieldProps) {
  const inputId = `ds-${id}`;
  const described = [hint ? `${inputId}-hint` : null, error ? `${inputId}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="dp-field">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        className="p-inputtext p-component"
        value={value}
        aria-invalid={Boolean(error)}
        aria-describedby={described || undefined}
        {...input}
        onChange={(e) => onValue(e.target.value)}
      />
      {hint && (
        <small id={`${inputId}-hint`} className="dp-field-hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${inputId}-error`} className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}
