/**
 * Edit mode's changes to one view's widgets (spec 1 sections 2, 4, 5; docs/decisions.md 'Dashboard
 * edit mode'): each change (a drop, a resize, a keyboard step, an added or removed widget) shows at
 * once and is saved at once with PUT /group/{groupid}/view and the version last answered. Saves go
 * one at a time: changes made while one is on its way are sent together after it, so a burst of
 * key presses makes two saves, not one per press. A 409 (someone else saved the view meanwhile)
 * drops the unsaved change and offers Reload; any other failure shows 'An error occurred' with the
 * server's message and the view as stored. Each refused add ('Maximum number of …') gives a notice
 * of its own, stacked under the earlier ones (at most NOTICES_KEPT), until the next change or
 * Dismiss: a second refusal of the same kind is seen and announced as well.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  addWidget,
  removeWidget,
  tableWidgetChangeError,
  withBreakpointLayout,
  type GridBreakpoint,
  type GridPlacement,
  type View,
  type ViewWidgets,
  type WidgetType,
} from '@portal/core';
import { useSaveView, viewInputOf } from '../api/save-view';
import { useViewSaveFailure } from './use-view-save';

/** Most refusal notices kept: older ones go. */
export const NOTICES_KEPT = 5;

/** A refused change's notice; `id` tells two notices of the same text apart. */
export interface EditNotice {
  id: number;
  text: string;
}

/** Widgets shown ahead of the stored view: changed locally, saved as (at most) `version` once answered. */
interface Local {
  widgets: ViewWidgets;
  /** The version the save of these widgets answered; Infinity until then. */
  version: number;
}

export function useDashboardEdit(groupid: string, view: View) {
  const save = useSaveView(groupid);
  const { stale, fail, reload, reloading } = useViewSaveFailure(groupid);
  const [local, setLocal] = useState<Local | null>(null);
  const [saving, setSaving] = useState(false);
  const [notices, setNotices] = useState<readonly EditNotice[]>([]);
  const noticeId = useRef(0);

  /** The view as the server last answered it (its version is the one the next save sends). */
  const stored = useRef(view);
  /** Widgets changed since the last save was sent, waiting for it to answer. */
  const pending = useRef<ViewWidgets | null>(null);
  const sending = useRef(false);

  useEffect(() => {
    if (view.version > stored.current.version) stored.current = view;
  }, [view]);

  // The stored view has caught up with (or moved past) what was shown ahead of it.
  const widgets = local && view.version < local.version ? local.widgets : view.widgets;

  const send = useCallback(() => {
    if (sending.current || !pending.current) return;
    const next = pending.current;
    pending.current = null;
    sending.current = true;
    setSaving(true);
    const base = stored.current;
    save
      .mutateAsync({ ...viewInputOf(base), widgets: next as ReturnType<typeof viewInputOf>['widgets'] })
      .then((answer) => {
        stored.current = answer.view;
        sending.current = false;
        if (pending.current) send();
        else {
          setSaving(false);
          setLocal((shown) =>
            shown && shown.widgets === next ? { widgets: next, version: answer.view.version } : shown,
          );
        }
      })
      .catch((error: unknown) => {
        sending.current = false;
        pending.current = null;
        setSaving(false);
        setLocal(null);
        fail(error);
      });
  }, [save, fail]);

  /** Shows `next` at once and saves it. */
  const change = useCallback(
    (next: ViewWidgets) => {
      // The grid never resizes or drops a table; a change that would is not sent (the server refuses it too).
      if (tableWidgetChangeError({ widgets: stored.current.widgets }, { widgets: next })) return;
      setNotices([]);
      setLocal({ widgets: next, version: Number.POSITIVE_INFINITY });
      pending.current = next;
      send();
    },
    [send],
  );

  const current = useRef(widgets);
  current.current = widgets;

  /** A drag, resize or keyboard step finished at `bp`: that breakpoint's layouts only. */
  const layout = useCallback(
    (bp: GridBreakpoint, placements: readonly GridPlacement[]) => {
      const next = withBreakpointLayout(current.current, bp, placements);
      if (next !== current.current) change(next);
    },
    [change],
  );

  /** Adds a widget of `type` below the others, or says why it cannot ('Maximum number of …'). */
  const add = useCallback(
    (type: WidgetType): string | null => {
      const added = addWidget(current.current, type);
      if (!added.ok) {
        noticeId.current += 1;
        const notice = { id: noticeId.current, text: added.error };
        setNotices((shown) => [...shown, notice].slice(-NOTICES_KEPT));
        return null;
      }
      change(added.widgets);
      return added.id;
    },
    [change],
  );

  const remove = useCallback(
    (id: string) => {
      const next = removeWidget(current.current, id);
      if (next !== current.current) change(next);
    },
    [change],
  );

  return {
    widgets,
    layout,
    add,
    remove,
    saving,
    stale,
    reload,
    reloading,
    notices,
    clearNotices: () => setNotices([]),
  };
}
