/**
 * The widget editor route (spec 1 section 2: /group/{groupid}/{viewid}/editor/{widgetid}?type=
 * table|chart|headline; spec 2 section 2): the group and its views, then 'View not found' or
 * 'Widget not found' (spec 1 section 8) or the editor of the widget's type. ADMIN and USER of the
 * group edit (DESIGN.md section 5); anyone else is told they cannot (the server refuses their save
 * anyway). Save goes through the view save with the version loaded (a stale one offers Reload,
 * which starts the form again from the stored view) and returns to the view. Beside the form the
 * widget's live preview (WidgetPreview: the dashboard's widget over the group's data). Loaded lazily.
 */
import { Suspense, lazy, useMemo } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  VIEW_NOT_FOUND,
  VIEW_SAVE_ERROR,
  WIDGET_NOT_FOUND,
  groupCan,
  loadErrorDetail,
  withWidgetSettings,
  type Widget,
} from '@portal/core';
import { NotFoundScreen } from '@/components/ui/not-found-screen';
import { StatusScreen } from '@/components/ui/status-screen';
import { ApiError } from '@/lib/api';
import { usePageTitle } from '@/lib/page-title';
import { useMessageDialog } from '@/lib/message-dialog';
import { getDeviceData } from '@/features/device-data/api/device-data';
import { useGroup } from '@/features/groups/api/get-group';
import { useViews } from '@/features/groups/api/get-views';
import { viewInputOf } from '@/features/groups/api/save-view';
import { GroupNotFound, HomeSkeleton } from '@/features/groups/components/group-states';
import { StaleViewNotice } from '@/features/groups/components/stale-view-notice';
import { useViewSave } from '@/features/groups/hooks/use-view-save';
import {
  TYPE_NAMES,
  WidgetEditor,
  isEditable,
  type EditableType,
} from '@/features/widget-editor/components/widget-editor';
import '@/features/groups/components/view-dialogs.css';

const loadRecord = (deviceid: string, signal: AbortSignal) => getDeviceData(deviceid, 1, signal);

// The preview (the group data hook and the widget card; each widget's own code loads with it) is
// a chunk of its own: the form does not wait for it.
const WidgetPreview = lazy(() => import('./widget-preview').then((m) => ({ default: m.WidgetPreview })));

function typeOf(value: string | null): EditableType {
  return value === 'chart' || value === 'headline' ? value : 'table';
}

export function WidgetEditorRoute() {
  const { groupid = '', viewid = '', widgetid = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const messages = useMessageDialog();
  const group = useGroup(groupid);
  const views = useViews(groupid);
  const saver = useViewSave(groupid);
  const backTo = `/group/${encodeURIComponent(groupid)}/${encodeURIComponent(viewid)}`;

  const view = views.data?.find((v) => v.viewid === viewid);
  const widget = view && Object.hasOwn(view.widgets, widgetid) ? view.widgets[widgetid] : undefined;
  const typeName = TYPE_NAMES[widget && isEditable(widget.type) ? widget.type : typeOf(search.get('type'))];
  const summaries = group.data?.deviceSummaries;
  const devices = useMemo(
    () => Object.entries(summaries ?? {}).map(([deviceid, d]) => ({ deviceid, name: d.name })),
    [summaries],
  );

  usePageTitle(`Edit ${typeName}`, group.data?.groupName);

  if (group.error instanceof ApiError && group.error.status === 404) return <GroupNotFound groupid={groupid} />;
  if (views.isError || group.isError)
    return (
      <StatusScreen icon="pi pi-exclamation-triangle" title={VIEW_SAVE_ERROR} tone="danger">
        <p>{loadErrorDetail(views.error ?? group.error)}</p>
      </StatusScreen>
    );
  if (!views.data || !group.data) return <HomeSkeleton tabsAndCards />;

  const { groupName, myPermission, deviceSummaries } = group.data;
  if (!groupCan(myPermission, 'editViews'))
    return (
      <StatusScreen
        icon="pi pi-lock"
        title="You cannot edit this widget"
        actions={
          <Link className="p-button" to={backTo}>
            Back to the view
          </Link>
        }
      >
        <p>
          Only the group&apos;s ADMIN and USER members edit its views; you are a {myPermission} member of {groupName}.
        </p>
      </StatusScreen>
    );
  if (!view)
    return (
      <NotFoundScreen title={VIEW_NOT_FOUND}>
        <p>The group {groupName} has no view with this id. It may have been deleted.</p>
      </NotFoundScreen>
    );
  if (!widget || !isEditable(widget.type))
    return (
      <NotFoundScreen
        title={WIDGET_NOT_FOUND}
        moreActions={
          <Link className="p-button p-button-outlined" to={backTo}>
            Back to {view.name}
          </Link>
        }
      >
        <p>
          The view {view.name} has no {widget ? 'editable widget' : 'widget'} with this id. It may have been removed.
        </p>
      </NotFoundScreen>
    );

  const onSave = (settings: Record<string, unknown>) => {
    const next = withWidgetSettings(views.data, view.viewid, widgetid, settings);
    if (!next.ok) {
      messages.show(VIEW_SAVE_ERROR, next.error, 'error');
      return;
    }
    saver.save(viewInputOf(next.value), () => void navigate(backTo));
  };

  return (
    <WidgetEditor
      // A reload (after a stale save) starts the form again from the stored view.
      key={`${view.viewid}:${view.version}`}
      groupName={groupName}
      deviceSummaries={deviceSummaries}
      view={view}
      widget={widget as Widget & { type: EditableType }}
      backTo={backTo}
      loadRecord={loadRecord}
      saving={saver.saving}
      notice={
        saver.stale ? (
          <StaleViewNotice message={saver.stale} reloading={saver.reloading} onReload={() => void saver.reload()} />
        ) : null
      }
      onSave={onSave}
      preview={(settings, valid) => (
        <Suspense fallback={<div className="we-preview" aria-hidden="true" />}>
          <WidgetPreview
            groupid={groupid}
            view={view}
            widgetid={widgetid}
            type={widget.type as EditableType}
            settings={settings}
            valid={valid}
            devices={devices}
          />
        </Suspense>
      )}
    />
  );
}
