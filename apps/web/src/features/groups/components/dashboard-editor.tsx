/**
 * A view's dashboard in edit mode (spec 1 sections 2 'Group view', 4 'view editing', 5 'widget
 * limits'), a lazy chunk of its own: the Add Widget buttons (chart, headline, map, and a table
 * while the view has none; each blocked add says 'Maximum number of {type}s reached [{max}]' in a
 * notice of its own, stacked until the next change or Dismiss), each
 * widget's edit bar (drag handle, keyboard steps, Edit link, Remove with a confirmation), the
 * corner resize handle (not on tables) and the save state. Every change is saved at once for the
 * breakpoint it was made at (use-dashboard-edit).
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import {
  ADDABLE_WIDGET_TYPES,
  WIDGET_TYPE_LABELS,
  type GridBreakpoint,
  type LayoutStep,
  type View,
  type ViewWidgets,
  type Widget,
} from '@portal/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDashboardEdit } from '../hooks/use-dashboard-edit';
import { DashboardGrid, type DashboardGridEdit } from './dashboard-grid';
import { steppedGridLayout } from './grid-steps';
import { StaleViewNotice } from './stale-view-notice';
import { WidgetEditBar } from './widget-edit-bar';
import './view-dialogs.css';
import './view-edit.css';

export interface DashboardEditorProps {
  groupid: string;
  view: View;
  renderWidget: (id: string, widget: Widget) => ReactNode;
}

/** Each widget's name in labels: its kind and its place among the widgets of that kind ('Headline 2'). */
function widgetNames(widgets: ViewWidgets): Map<string, string> {
  const counts = new Map<string, number>();
  const names = new Map<string, string>();
  const ids = Object.keys(widgets).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  for (const id of ids) {
    const type = widgets[id]?.type;
    if (!type) continue;
    const n = (counts.get(type) ?? 0) + 1;
    counts.set(type, n);
    names.set(id, `${WIDGET_TYPE_LABELS[type]} ${n}`);
  }
  return names;
}

/** The widget editor's route (spec 2 section 2). */
export function widgetEditorPath(groupid: string, viewid: string, widgetid: string, type: Widget['type']): string {
  const part = encodeURIComponent;
  return `/group/${part(groupid)}/${part(viewid)}/editor/${part(widgetid)}?type=${type}`;
}

export default function DashboardEditor({ groupid, view, renderWidget }: DashboardEditorProps) {
  const edit = useDashboardEdit(groupid, view);
  const [removing, setRemoving] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const widgets = edit.widgets;
  const names = useMemo(() => widgetNames(widgets), [widgets]);
  const { layout } = edit;

  // A widget just added is brought into sight (it goes below the others).
  useEffect(() => {
    if (!added) return;
    document.querySelector(`[data-widget-id="${CSS.escape(added)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [added, widgets]);

  const step = useCallback(
    (bp: GridBreakpoint, id: string, s: LayoutStep) => {
      const next = steppedGridLayout(widgets, bp, id, s);
      if (next) layout(bp, next);
    },
    [widgets, layout],
  );

  const gridEdit = useMemo<DashboardGridEdit>(
    () => ({
      onLayout: layout,
      renderTools: (id, widget, bp) => (
        <WidgetEditBar
          id={id}
          widget={widget}
          name={names.get(id) ?? id}
          layout={widget.layouts[bp]}
          editorPath={widgetEditorPath(groupid, view.viewid, id, widget.type)}
          onStep={(wid, s) => step(bp, wid, s)}
          onRemove={setRemoving}
        />
      ),
    }),
    [layout, names, groupid, view.viewid, step],
  );

  const removingName = removing ? (names.get(removing) ?? removing) : '';
  return (
    <>
      <div className="view-edit-bar">
        <div className="view-edit-bar__add" role="group" aria-label="Add Widget">
          <span className="view-edit-bar__label" aria-hidden="true">
            Add widget
          </span>
          {ADDABLE_WIDGET_TYPES.map((type) => (
            <Button
              key={type}
              type="button"
              size="small"
              outlined
              icon="pi pi-plus"
              label={WIDGET_TYPE_LABELS[type]}
              aria-label={`Add ${WIDGET_TYPE_LABELS[type]}`}
              onClick={() => setAdded(edit.add(type))}
            />
          ))}
        </div>
        <span className="view-edit-bar__state" role="status">
          {edit.saving ? 'Saving…' : 'Changes are saved as you make them.'}
        </span>
        {edit.notices.length > 0 && (
          // One notice per refusal, each announced as it comes (a repeat of the same text too).
          <div className="view-edit-bar__notices">
            <div className="view-edit-bar__notice-list">
              {edit.notices.map((notice) => (
                <p key={notice.id} className="view-edit-bar__notice" role="alert">
                  <i className="pi pi-exclamation-circle" aria-hidden="true" /> {notice.text}
                </p>
              ))}
            </div>
            <Button
              type="button"
              size="small"
              text
              label="Dismiss"
              aria-label={edit.notices.length > 1 ? 'Dismiss the notices' : 'Dismiss the notice'}
              onClick={edit.clearNotices}
            />
          </div>
        )}
        {edit.stale && (
          <StaleViewNotice message={edit.stale} reloading={edit.reloading} onReload={() => void edit.reload()} />
        )}
      </div>
      <DashboardGrid widgets={widgets} renderWidget={renderWidget} edit={gridEdit} />
      <ConfirmDialog
        visible={removing !== null}
        header="Remove Widget"
        className="widget-remove-dialog"
        confirmLabel="Remove"
        confirmIcon="pi pi-trash"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) edit.remove(removing);
          setRemoving(null);
        }}
      >
        Remove {removingName} from this view?
      </ConfirmDialog>
    </>
  );
}
