/**
 * The View Range dialog (spec 1 sections 2, 5 and 9): the presets last 24 hours, 7 days, 30 days,
 * week to date, month to date and custom; a custom range takes From and To (local time) with the
 * shortcuts previous 30 days, 7 days, 24 hours, previous week and previous month; 'Invalid date
 * range' and Apply disabled unless From is before To. The rules are core's (view-range.ts).
 * An editor's choice is saved into the view; another member's applies to this tab only.
 * Loaded only when opened.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import {
  CUSTOM_RANGE_SHORTCUTS,
  CUSTOM_RANGE_SHORTCUT_LABELS,
  VIEW_RANGE_PRESETS,
  VIEW_RANGE_PRESET_LABELS,
  customTimeRange,
  dateRangeError,
  presetOfTimeRange,
  presetTimeRange,
  resolveTimeRange,
  shortcutRange,
  type TimeRange,
  type View,
  type ViewRangePreset,
} from '@portal/core';
import { viewInputOf } from '../api/save-view';
import { viewerTimeZone } from '../hooks/use-view-data';
import { useViewSave } from '../hooks/use-view-save';
import { StaleViewNotice } from './stale-view-notice';
import './view-dialogs.css';

export interface ViewRangeDialogProps {
  groupid: string;
  view: View;
  /** The range shown now (the view's, or this tab's own choice). */
  range: TimeRange;
  /** ADMIN and USER save the range into the view; others keep it for this tab. */
  canEdit: boolean;
  /** Whether this tab has a range of its own for the view (non-editors). */
  sessionOnly: boolean;
  onHide: () => void;
  /** A non-editor's choice (null: back to the view's range). */
  onSessionRange: (range: TimeRange | null) => void;
}

/** 'YYYY-MM-DDTHH:mm' of a datetime-local input, in the viewer's time zone. */
function toLocalInput(epochS: number): string {
  const d = new Date(epochS * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** Epoch ms of a datetime-local value (local time), NaN when empty or not a date. */
function fromLocalInput(value: string): number {
  return value ? new Date(value).getTime() : Number.NaN;
}

export default function ViewRangeDialog({
  groupid,
  view,
  range,
  canEdit,
  sessionOnly,
  onHide,
  onSessionRange,
}: ViewRangeDialogProps) {
  const saver = useViewSave(groupid);
  const form = useRef<HTMLFormElement>(null);
  const [preset, setPreset] = useState<ViewRangePreset | null>(() => presetOfTimeRange(range));
  const [custom, setCustom] = useState(() => {
    const resolved = resolveTimeRange(range, Date.now(), viewerTimeZone());
    return { from: toLocalInput(resolved.from), to: toLocalInput(resolved.to) };
  });

  const fromMs = fromLocalInput(custom.from);
  const toMs = fromLocalInput(custom.to);
  const rangeError = preset === 'custom' ? dateRangeError(fromMs, toMs) : null;
  const canApply = preset !== null && rangeError === null && !saver.saving;

  const chosen = (): TimeRange | null => {
    if (preset === null) return null;
    if (preset === 'custom') return customTimeRange(fromMs / 1000, toMs / 1000);
    return presetTimeRange(preset);
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = chosen();
    if (!next || !canApply) return;
    if (!canEdit) {
      onSessionRange(next);
      onHide();
      return;
    }
    saver.save({ ...viewInputOf(view), timeRange: next }, onHide);
  };

  const footer = (
    <div className="view-dialog__footer">
      {!canEdit && sessionOnly && (
        <Button
          type="button"
          label="Use the view’s range"
          text
          className="view-dialog__delete"
          onClick={() => {
            onSessionRange(null);
            onHide();
          }}
        />
      )}
      <Button type="button" label="Cancel" text onClick={onHide} disabled={saver.saving} />
      <Button type="submit" form="view-range-form" label="Apply" loading={saver.saving} disabled={!canApply} />
    </div>
  );

  return (
    <Dialog
      visible
      onHide={() => {
        if (!saver.saving) onHide();
      }}
      header="View Range"
      // Keyboard users start on the chosen preset (the dialog would focus its close button).
      onShow={() =>
        form.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked, input[type="radio"]')?.focus()
      }
      footer={footer}
      className="view-dialog"
      style={{ width: '32rem' }}
      breakpoints={{ '575px': '100vw' }}
      draggable={false}
      resizable={false}
    >
      <form id="view-range-form" ref={form} className="view-dialog__form" onSubmit={apply} noValidate>
        <fieldset className="view-range__presets">
          <legend className="view-range__legend">Range</legend>
          {VIEW_RANGE_PRESETS.map((p) => (
            <label key={p} className={`view-range__preset${preset === p ? ' view-range__preset--on' : ''}`}>
              <input
                type="radio"
                name="view-range-preset"
                value={p}
                checked={preset === p}
                onChange={() => setPreset(p)}
              />
              <span>{VIEW_RANGE_PRESET_LABELS[p]}</span>
            </label>
          ))}
        </fieldset>
        {preset === 'custom' && (
          <div className="view-range__custom">
            <div className="view-range__shortcuts" role="group" aria-label="Shortcuts">
              {CUSTOM_RANGE_SHORTCUTS.map((shortcut) => (
                <Button
                  key={shortcut}
                  type="button"
                  size="small"
                  outlined
                  label={CUSTOM_RANGE_SHORTCUT_LABELS[shortcut]}
                  onClick={() => {
                    const r = shortcutRange(shortcut, Date.now(), viewerTimeZone());
                    setCustom({ from: toLocalInput(r.from), to: toLocalInput(r.to) });
                  }}
                />
              ))}
            </div>
            <div className="view-range__dates">
              <label className="view-range__date">
                <span>From</span>
                <input
                  type="datetime-local"
                  className="p-inputtext"
                  value={custom.from}
                  aria-invalid={rangeError !== null}
                  aria-describedby={rangeError ? 'view-range-error' : undefined}
                  onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value }))}
                />
              </label>
              <label className="view-range__date">
                <span>To</span>
                <input
                  type="datetime-local"
                  className="p-inputtext"
                  value={custom.to}
                  aria-invalid={rangeError !== null}
                  aria-describedby={rangeError ? 'view-range-error' : undefined}
                  onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value }))}
                />
              </label>
            </div>
            {rangeError && (
              <p id="view-range-error" className="form-field__error" role="alert">
                <i className="pi pi-exclamation-circle" aria-hidden="true" /> {rangeError}
              </p>
            )}
          </div>
        )}
        <p className="view-range__note">
          {canEdit
            ? 'Saved with the view: every member sees this range.'
            : 'Only for you, in this browser tab: you may not change the view itself.'}
        </p>
        {saver.stale && (
          <StaleViewNotice message={saver.stale} reloading={saver.reloading} onReload={() => void saver.reload()} />
        )}
      </form>
    </Dialog>
  );
}
