/**
 * The widget editor's form (spec 2 sections 2 and 3): the form of the widget's type over a draft
 * of its settings, checked field by field with core's rules (utils/field-errors; the messages
 * shown beside the fields after the first Save), then handed to `onSave`; the server checks the
 * whole contract again (filling in defaults, clamping a headline's dp). Cancel leaves; leaving
 * with unsaved changes asks first (Cancel, the breadcrumb, and the browser's own prompt when the
 * tab closes or reloads). Beside the options (above them on a narrow screen) a live preview draws
 * the draft as the view will show it (`preview`, the route's WidgetPreview).
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from 'primereact/button';
import {
  type ChartSettings,
  type DataResponse,
  type HeadlineSettings,
  type TableSettings,
  type View,
  type Widget,
} from '@portal/core';
import { FieldScope } from '@/components/form/fields';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useKnownKeys } from '../hooks/use-known-keys';
import { settingsErrors } from '../utils/field-errors';
import { ChartForm } from './chart-form';
import { HeadlineForm } from './headline-form';
import { TableForm } from './table-form';
import './widget-editor.css';

export type EditableType = 'table' | 'chart' | 'headline';
type Settings = TableSettings | ChartSettings | HeadlineSettings;

export const TYPE_NAMES: Record<EditableType, string> = { table: 'Table', chart: 'Chart', headline: 'Headline' };

/** Whether the editor has a form for a widget type (a map has no settings). */
export const isEditable = (type: Widget['type']): type is EditableType => type !== 'map';

/** A saved widget's settings as its form starts from them (a plain record read into its type's shape). */
function startingSettings(widget: Widget & { type: EditableType }): Settings {
  const s = widget.settings;
  if (widget.type === 'table') return { ...s, columns: Array.isArray(s.columns) ? s.columns : [] } as TableSettings;
  if (widget.type === 'chart') return { ...s, series: Array.isArray(s.series) ? s.series : [] } as ChartSettings;
  return { ...s, key: typeof s.key === 'string' ? s.key : '' } as HeadlineSettings;
}

/** The record keys a widget's settings already name. */
function usedKeys(type: EditableType, settings: Settings): string[] {
  if (type === 'table') return (settings as TableSettings).columns.map((c) => c.key);
  if (type === 'chart') return (settings as ChartSettings).series.map((s) => s.key);
  return [(settings as HeadlineSettings).key];
}

export interface WidgetEditorProps {
  groupName: string;
  deviceSummaries: Record<string, { name: string }>;
  view: View;
  widget: Widget & { type: EditableType };
  /** Where Save and Cancel return: the view. */
  backTo: string;
  /** A device's newest record (the keys the editor offers). */
  loadRecord: (deviceid: string, signal: AbortSignal) => Promise<DataResponse>;
  saving: boolean;
  /** Shown above the buttons: the stale-view notice, say. */
  notice?: ReactNode;
  /** The settings as the contract gives them. */
  onSave: (settings: Record<string, unknown>) => void;
  /** The live preview of the draft's settings; `valid`: no field has a message. */
  preview: (settings: Record<string, unknown>, valid: boolean) => ReactNode;
}

export function WidgetEditor({
  groupName,
  deviceSummaries,
  view,
  widget,
  backTo,
  loadRecord,
  saving,
  notice,
  onSave,
  preview,
}: WidgetEditorProps) {
  const navigate = useNavigate();
  const type = widget.type;
  const [initial] = useState(() => startingSettings(widget));
  const [draft, setDraft] = useState<Settings>(initial);
  const [submitted, setSubmitted] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  const errors = useMemo(() => settingsErrors(type, draft), [type, draft]);
  const shownErrors = submitted ? errors : {};
  const hasErrors = Object.keys(errors).length > 0;

  const devices = useMemo(
    () =>
      Object.entries(deviceSummaries)
        .map(([deviceid, d]) => ({ deviceid, name: d.name }))
        .sort((a, b) => (a.name || a.deviceid).localeCompare(b.name || b.deviceid)),
    [deviceSummaries],
  );
  const knownKeys = useKnownKeys(
    devices.map((d) => d.deviceid),
    usedKeys(type, initial),
    loadRecord,
  );

  // The browser asks before a tab with unsaved changes closes or reloads.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const leave = () => {
    if (dirty) setLeaving(true);
    else void navigate(backTo);
  };

  const save = () => {
    setSubmitted(true);
    if (saving) return;
    if (hasErrors) {
      // Focus the first field with a message, so keyboard and screen reader users land on it.
      window.requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('.we-page [aria-invalid="true"], .we-page .p-invalid input')?.focus(),
      );
      return;
    }
    onSave(draft as Record<string, unknown>);
  };

  const typeName = TYPE_NAMES[type];

  return (
    <div className="we-page">
      <nav className="we-crumbs" aria-label="Breadcrumb">
        <Link
          to={backTo}
          onClick={(event) => {
            if (!dirty) return;
            event.preventDefault();
            setLeaving(true);
          }}
        >
          <i className="pi pi-arrow-left" aria-hidden="true" /> {groupName} · {view.name}
        </Link>
      </nav>
      <h1 className="we-title">Edit {typeName}</h1>
      <div className="we-layout">
        {preview(draft as Record<string, unknown>, !hasErrors)}
        <form
          className="we-body"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <FieldScope prefix="we">
            {type === 'table' ? (
              <TableForm
                settings={draft as TableSettings}
                onChange={setDraft}
                errors={shownErrors}
                knownKeys={knownKeys}
              />
            ) : type === 'headline' ? (
              <HeadlineForm
                settings={draft as HeadlineSettings}
                onChange={setDraft}
                errors={shownErrors}
                knownKeys={knownKeys}
              />
            ) : (
              <ChartForm
                settings={draft as ChartSettings}
                onChange={setDraft}
                errors={shownErrors}
                knownKeys={knownKeys}
                devices={devices}
              />
            )}
          </FieldScope>
          {notice}
          <div className="we-actions">
            {submitted && hasErrors ? (
              <p className="we-error we-actions__summary" role="alert">
                Some fields need attention before the widget can be saved.
              </p>
            ) : null}
            <Button type="button" label="Cancel" text onClick={leave} disabled={saving} />
            <Button type="submit" label="Save" icon="pi pi-check" loading={saving} />
          </div>
        </form>
      </div>
      <ConfirmDialog
        visible={leaving}
        header="Discard changes?"
        confirmLabel="Discard changes"
        cancelLabel="Keep editing"
        onCancel={() => setLeaving(false)}
        onConfirm={() => {
          setLeaving(false);
          void navigate(backTo);
        }}
      >
        This {typeName.toLowerCase()} has changes that are not saved. Leave without saving them?
      </ConfirmDialog>
    </div>
  );
}
