/**
 * Home, the group dashboard (spec 1 section 2 'Home' and 'Group view'): '/', '/group/:groupid'
 * and '/group/:groupid/:viewid'. The group is the URL's, else the most recent of the user's
 * groups in the local recent list, else the user's first group; a user with no groups sees the
 * welcome panel. Provisioning accounts go to /sqprov.
 */
import { Suspense, lazy, useCallback, useEffect, useMemo, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_VIEW,
  ERROR_LOADING_DATA,
  GROUP_MESSAGES,
  STALE_TIMES_MS,
  VIEW_NOT_FOUND,
  groupCan,
  homeGroupId,
  homeRedirectFor,
  serverMessage,
  loadErrorDetail,
  tablePageSize,
  type GridBreakpoint,
  type TimeRange,
  type View,
  type Widget,
} from '@portal/core';
import { ApiError } from '@/lib/api';
import { useAuth } from '@/lib/auth/auth-context';
import { usePageTitle } from '@/lib/page-title';
import { useGroups } from '@/features/groups/api/get-groups';
import { groupQueryOptions } from '@/features/groups/api/get-group';
import { useViews } from '@/features/groups/api/get-views';
import { GroupLoadError, GroupNotFound, HomeSkeleton } from '@/features/groups/components/group-states';
import { GroupSearch, type SearchHit } from '@/features/groups/components/group-search';
import { GroupLine, HomeHeader } from '@/features/groups/components/home-header';
import { fittedTableHeights } from '@/features/groups/components/grid-fit';
import { UngroupedDevices, UngroupedJumpLink } from '@/features/groups/components/ungrouped-devices';
import { ViewDashboard } from '@/features/groups/components/view-dashboard';
import { ViewTabs } from '@/features/groups/components/view-tabs';
import { WelcomePanel } from '@/features/groups/components/welcome-panel';
import { WidgetCard, WidgetCardSkeleton } from '@/features/groups/components/widget-card';
import {
  effectiveRange,
  tableSettingsOf,
  useViewData,
  viewDataQueryOptions,
  viewFor,
} from '@/features/groups/hooks/use-view-data';
import { useSessionRange } from '@/features/groups/hooks/view-range-session';
import { viewRangeLabel } from '@/features/groups/components/view-range-label';
import { DeviceListsButton } from '@/features/recent-devices/components/device-lists-button';
import { FavouriteStar } from '@/features/recent-devices/components/favourite-device-button';
import {
  isFavouriteDevice,
  recordRecentDevice,
  toggleFavouriteDevice,
  useDeviceLists,
} from '@/features/recent-devices/hooks/use-device-lists';
import { useNavigationHelper } from '@/features/recent-devices/hooks/use-navigation-helper';
import { WidgetExportMenu } from '@/features/widget-export/components/widget-export-menu';
import { useExportSources } from '@/features/widget-export/hooks/use-export-sources';
import { useGroupDeviceActions } from './group-device-actions';
import { prefetchGroupHome } from './home-prefetch';

// The widgets' code loads with the first view that has them (the map's Leaflet in a chunk of its own).
const GroupTableWidget = lazy(() => import('@/features/group-table/components/group-table-widget'));
const HeadlineWidget = lazy(() => import('@/features/group-headline/components/headline-widget'));
const GroupMapWidget = lazy(() => import('@/features/group-map/components/group-map-widget'));
const GroupChartWidget = lazy(() => import('@/features/group-chart/components/group-chart-widget'));
// The view dialogs load when an editor (or, for View Range, anyone) opens one.
const ViewSettingsDialog = lazy(() => import('@/features/groups/components/view-settings-dialog'));
const ViewRangeDialog = lazy(() => import('@/features/groups/components/view-range-dialog'));

/** Home's heading and title for a user without groups (the welcome panel under it). */
const WELCOME_TITLE = 'Welcome';

const WIDGET_TITLES: Record<Widget['type'], string> = {
  table: 'Devices',
  map: 'Map',
  chart: 'Chart',
  headline: 'Headline',
};

export function HomeRoute() {
  const { session } = useAuth();
  const params = useParams();
  const lists = useDeviceLists();
  const groups = useGroups();
  const goTo = useNavigationHelper();
  const onChoose = useCallback((hit: SearchHit) => goTo(hit.id, hit.name), [goTo]);

  const redirect = homeRedirectFor(session.userGroups);
  const urlGroupid = params.groupid;
  const groupid = urlGroupid ?? (groups.data ? homeGroupId(lists.recent, groups.data) : null);

  const views = useViews(redirect ? null : groupid);
  const view = views.data ? viewFor(views.data, params.viewid) : undefined;
  const listed = groups.data?.find((g) => g.groupid === groupid);
  // ADMIN and USER edit views (DESIGN.md section 5); the server decides each save again.
  const canEdit = groupCan(listed?.permission, 'editViews');
  const [sessionRange, setSessionRange] = useSessionRange(groupid ?? '', view?.viewid ?? '');
  const range = view ? (canEdit ? view.timeRange : effectiveRange(view, sessionRange)) : DEFAULT_VIEW.timeRange;
  // For a group of the user's list, the group call (every device's summary: for 10,000 devices as
  // heavy on the server as the data call) waits until the view's data has answered, so it does not
  // slow the call the dashboard draws from; meanwhile the list's entry names the group. A group not
  // in the list (or before the list has answered, for a URL's group) is asked for at once.
  const viewData = useQuery({ ...viewDataQueryOptions(groupid ?? '', view ?? DEFAULT_VIEW, range), enabled: false });
  const groupFirst = !listed && (groups.isFetched || !urlGroupid);
  const group = useQuery({
    ...groupQueryOptions(groupid ?? ''),
    enabled: Boolean(groupid) && !redirect && (groupFirst || viewData.isFetched || views.isError),
    // The screen shows the failure itself (GRP-13).
    meta: { silent: true },
  });
  // The view's data and the widgets' code are asked for together with the group, not once it has
  // answered: the dashboard draws one round trip sooner (for a group in the URL the app asked at start-up).
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!groupid || redirect) return;
    prefetchGroupHome(queryClient, groupid, params.viewid);
  }, [queryClient, groupid, params.viewid, redirect]);
  const groupName = group.data?.groupName ?? listed?.groupName ?? null;
  /** The group's name once the group (or, until it answers, the user's list) has it. */
  const shownName = group.data?.groupName ?? (listed && !group.isError ? listed.groupName : null);

  // The visit goes into the recent list (HOME-14/15).
  useEffect(() => {
    if (groupid && shownName !== null) recordRecentDevice(groupid, shownName);
  }, [groupid, shownName]);
  // Title 'Portal - {group name}' (HOME-09); 'Portal - Welcome' for a user without groups.
  const groupMissing = group.isError && group.error instanceof ApiError && group.error.status === 404;
  usePageTitle(groupMissing ? GROUP_MESSAGES.notFound : groupid ? shownName : groups.isSuccess ? WELCOME_TITLE : null);

  if (redirect) return <Navigate replace to={redirect} />;

  // How many devices the group holds: its data's, else the group call's, else the user's list's
  // (known before the dashboard draws: the table is sized by it).
  const deviceCount =
    viewData.data?.devices.length ??
    (group.data ? Object.keys(group.data.deviceSummaries).length : (listed?.deviceCount ?? null));

  const header = (heading: string | null, withStar: boolean) => (
    <HomeHeader
      groupid={groupid}
      heading={heading}
      meta={
        withStar ? (
          <GroupLine deviceCount={deviceCount}>
            <UngroupedJumpLink className="home-header__meta-item" />
          </GroupLine>
        ) : undefined
      }
      star={
        withStar && groupid && heading !== null ? (
          <FavouriteStar
            favourite={isFavouriteDevice(lists, groupid)}
            name={heading}
            onToggle={() => toggleFavouriteDevice(groupid, heading)}
          />
        ) : undefined
      }
      search={<GroupSearch groups={groups.data ?? []} onChoose={onChoose} />}
      favourites={<DeviceListsButton className="home-header__action" />}
    />
  );

  // Without a group in the URL, the choice waits for the user's groups.
  if (!urlGroupid && groups.isPending) {
    return (
      <div className="page home-page">
        <HomeSkeleton />
      </div>
    );
  }
  if (!urlGroupid && groups.isError) {
    return (
      <div className="page">
        {header(null, false)}
        <GroupLoadError
          message={serverMessage(groups.error) ?? ERROR_LOADING_DATA}
          onRetry={() => void groups.refetch()}
        />
      </div>
    );
  }
  if (!groupid) {
    return (
      <div className="page home-welcome">
        {header(WELCOME_TITLE, false)}
        <WelcomePanel />
        <UngroupedDevices />
      </div>
    );
  }
  if (groupMissing) {
    return (
      <div className="page">
        <GroupNotFound groupid={groupid} />
      </div>
    );
  }
  if (group.isError) {
    return (
      <div className="page">
        {header(groupName, false)}
        <GroupLoadError
          message={serverMessage(group.error) ?? ERROR_LOADING_DATA}
          onRetry={() => void group.refetch()}
        />
      </div>
    );
  }
  if (shownName === null) {
    return (
      <div className="page home-page">
        <HomeSkeleton />
      </div>
    );
  }
  return (
    <div className="page home-page">
      {header(shownName, true)}
      {views.isError ? (
        <GroupLoadError
          message={serverMessage(views.error) ?? ERROR_LOADING_DATA}
          onRetry={() => void views.refetch()}
        />
      ) : views.data && view ? (
        <GroupViews
          groupid={groupid}
          groupName={shownName}
          views={views.data}
          view={view}
          missingViewid={params.viewid !== undefined && params.viewid !== view.viewid ? params.viewid : null}
          range={range}
          sessionRange={canEdit ? null : sessionRange}
          canEdit={canEdit}
          onSessionRange={setSessionRange}
          deviceCount={deviceCount}
        />
      ) : (
        <HomeSkeleton tabsAndCards />
      )}
      <UngroupedDevices />
    </div>
  );
}

type Dialog = 'add' | 'settings' | 'range' | null;

interface GroupViewsProps {
  groupid: string;
  groupName: string;
  views: readonly View[];
  view: View;
  /** A view id in the URL that the group does not have (the first view shows instead). */
  missingViewid: string | null;
  range: TimeRange;
  sessionRange: TimeRange | null;
  canEdit: boolean;
  onSessionRange: (range: TimeRange | null) => void;
  /** How many devices the group holds, when known (the table is sized by it). */
  deviceCount: number | null;
}

/** The tabs, the view dialogs and the shown view's dashboard. */
function GroupViews({
  groupid,
  groupName,
  views,
  view,
  missingViewid,
  range,
  sessionRange,
  canEdit,
  onSessionRange,
  deviceCount,
}: GroupViewsProps) {
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  // Edit mode (Edit Widgets / Exit Edit) belongs to the view it was entered on.
  const [editingViewid, setEditingViewid] = useState<string | null>(null);
  const editing = canEdit && editingViewid === view.viewid;
  const group = encodeURIComponent(groupid);
  const close = () => setDialog(null);
  return (
    <>
      <ViewTabs
        groupid={groupid}
        views={views}
        activeViewid={view.viewid}
        rangeLabel={viewRangeLabel(range)}
        onViewRange={() => setDialog('range')}
        onAddView={canEdit ? () => setDialog('add') : undefined}
        onViewSettings={canEdit ? () => setDialog('settings') : undefined}
        onToggleEdit={canEdit ? () => setEditingViewid(editing ? null : view.viewid) : undefined}
        editing={editing}
      />
      {missingViewid !== null && (
        <p className="view-missing" role="status">
          <i className="pi pi-info-circle" aria-hidden="true" /> {VIEW_NOT_FOUND}: showing ‘{view.name}’.
        </p>
      )}
      <Suspense fallback={null}>
        {(dialog === 'add' || dialog === 'settings') && (
          <ViewSettingsDialog
            key={dialog}
            groupid={groupid}
            mode={dialog === 'add' ? 'add' : 'edit'}
            view={view}
            views={views}
            onHide={close}
            onSaved={(saved) => {
              close();
              void navigate(`/group/${group}/${encodeURIComponent(saved.viewid)}`);
            }}
            onDeleted={() => {
              close();
              void navigate(`/group/${group}`);
            }}
          />
        )}
        {dialog === 'range' && (
          <ViewRangeDialog
            groupid={groupid}
            view={view}
            range={range}
            canEdit={canEdit}
            sessionOnly={sessionRange !== null}
            onHide={close}
            onSessionRange={onSessionRange}
          />
        )}
      </Suspense>
      <GroupDashboard
        groupid={groupid}
        groupName={groupName}
        view={view}
        range={range}
        editing={editing}
        deviceCount={deviceCount}
      />
    </>
  );
}

interface GroupDashboardProps {
  groupid: string;
  groupName: string;
  view: View;
  range: TimeRange;
  /** Edit mode: the widgets can be moved, resized, added and removed. */
  editing: boolean;
  /** How many devices the group holds, when known. */
  deviceCount: number | null;
}

/** The view's widgets on the grid, fed by one group data call over the view's range; editable in edit mode. */
function GroupDashboard({ groupid, groupName, view, range, editing, deviceCount }: GroupDashboardProps) {
  const data = useViewData(groupid, view, range);
  const exportSource = useExportSources();
  /** A widget card's export menu, reading what the widget put into its export source. */
  const exportMenu = (id: string, title: string) => (
    <WidgetExportMenu title={title} groupName={groupName} range={range} source={exportSource(id)} />
  );
  const devices = data.data?.devices ?? [];
  const loading = data.isPending;
  const error = data.isError && !data.data ? loadErrorDetail(data.error) : null;
  const deviceActions = useGroupDeviceActions();
  // Each table as tall as its rows need, up to a page of them (issue 32), once the count is known.
  const heights = useMemo(() => {
    if (deviceCount === null) return undefined;
    const fitted: Record<string, Record<GridBreakpoint, number>> = {};
    for (const [id, widget] of Object.entries(view.widgets)) {
      if (widget.type === 'table') fitted[id] = fittedTableHeights(deviceCount, tablePageSize(tableSettingsOf(widget)));
    }
    return fitted;
  }, [deviceCount, view.widgets]);

  const renderWidget = (id: string, widget: Widget) => {
    const title = WIDGET_TITLES[widget.type];
    const fallback = <WidgetCardSkeleton id={id} title={title} />;
    switch (widget.type) {
      case 'table':
        return (
          <Suspense fallback={fallback}>
            <WidgetCard id={id} title={title} aside={exportMenu(id, title)}>
              <GroupTableWidget
                exportRef={exportSource(id)}
                settings={tableSettingsOf(widget)}
                devices={devices}
                loading={loading}
                fetching={data.isFetching}
                error={error}
                updatedAt={data.dataUpdatedAt}
                refreshIntervalMs={STALE_TIMES_MS.data}
                onRefresh={() => void data.refetch()}
                rowActions={deviceActions.button}
              />
            </WidgetCard>
          </Suspense>
        );
      case 'map':
        return (
          <Suspense fallback={fallback}>
            <WidgetCard id={id} title={title}>
              <GroupMapWidget devices={devices} loading={loading} />
            </WidgetCard>
          </Suspense>
        );
      case 'headline':
        return (
          <Suspense fallback={fallback}>
            <HeadlineWidget
              groupid={groupid}
              settings={widget.settings}
              range={range}
              exportRef={exportSource(id)}
              frame={(headline, body) => (
                <WidgetCard id={id} title={headline} aside={exportMenu(id, headline)}>
                  {body}
                </WidgetCard>
              )}
            />
          </Suspense>
        );
      case 'chart':
        return (
          <Suspense fallback={fallback}>
            <GroupChartWidget
              settings={widget.settings}
              range={range}
              devices={devices}
              exportRef={exportSource(id)}
              frame={(chartTitle, body) => (
                <WidgetCard id={id} title={chartTitle} aside={exportMenu(id, chartTitle)}>
                  {body}
                </WidgetCard>
              )}
            />
          </Suspense>
        );
    }
  };

  return (
    <>
      <ViewDashboard
        key={view.viewid}
        groupid={groupid}
        view={view}
        editing={editing}
        renderWidget={renderWidget}
        heights={heights}
      />
      {deviceActions.element}
    </>
  );
}
