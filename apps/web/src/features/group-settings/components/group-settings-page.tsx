import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { TabPanel, TabView } from 'primereact/tabview';
import { GROUP_MESSAGES, loadErrorDetail, type GroupResponse, type GroupSummary } from '@portal/core';
import { NotFoundScreen } from '@/components/ui/not-found-screen';
import { ApiError } from '@/lib/api';
import { useAuth } from '@/lib/auth/auth-context';
import { GROUP_SETTINGS_TABS, SHORT_TAB_LABELS, TAB_LABELS, tabVisible, type GroupSettingsTab } from '../utils/tabs';
import { DevicesTab } from './devices-tab';
import { MembersTab } from './members-tab';
import { NameTab } from './name-tab';
import { ServerLogTab } from './server-log-tab';
import './group-settings.css';
import { usePageTitle } from '@/lib/page-title';

export interface GroupSettingsPageProps {
  groupid: string;
  /** The tab of the URL (an index into GROUP_SETTINGS_TABS); null opens the first. */
  tabIndex: number | null;
  onSelectTab: (index: number) => void;
  /** GET /group/{groupid}: undefined while it loads or when it failed. */
  group: GroupResponse | undefined;
  groupError: unknown;
  onRetry: () => void;
  /** The user's groups (move and copy targets); undefined while they load. */
  groups: readonly GroupSummary[] | undefined;
  /** The user left the group (REMOVED_SELF, GRP-07): refresh the groups, drop it from recent, go home. */
  onRemovedSelf: () => void;
  /** The group was deleted: the same way out. */
  onDeleted: () => void;
}

/** Group settings (/group/{groupid}/settings/{tabindex?}): name, members, devices, server log. */
export function GroupSettingsPage(props: GroupSettingsPageProps) {
  const { groupid, group, groupError } = props;
  const groupName = group?.groupName;

  usePageTitle('Group Settings', groupName);

  if (!group) {
    if (groupError instanceof ApiError && groupError.status === 404) return <GroupNotFound />;
    return (
      <div className="page page--narrow group-settings">
        <SettingsHeader groupid={groupid} />
        {groupError ? (
          <div className="card gs-load-error" role="alert">
            <i className="pi pi-exclamation-triangle" aria-hidden="true" />
            <p>{loadErrorDetail(groupError)}</p>
            <Button type="button" label="Try again" icon="pi pi-refresh" outlined onClick={props.onRetry} />
          </div>
        ) : (
          <div
            className="card skeleton-stack gs-page-skeleton"
            aria-busy="true"
            role="status"
            aria-label="Loading group settings"
          >
            <div className="skeleton skeleton--tabs" />
            <div className="skeleton skeleton--label" />
            <div className="skeleton skeleton--input" />
            <div className="skeleton skeleton--row" />
          </div>
        )}
      </div>
    );
  }

  return <LoadedSettings {...props} group={group} />;
}

function LoadedSettings({
  groupid,
  tabIndex,
  onSelectTab,
  group,
  groups,
  onRemovedSelf,
  onDeleted,
}: GroupSettingsPageProps & { group: GroupResponse }) {
  const { user } = useAuth();
  const level = group.myPermission;
  const requested = tabIndex ?? 0;
  const tab = GROUP_SETTINGS_TABS[requested];
  const active = tab && tabVisible(tab, level) ? requested : 0;

  return (
    <div className="page page--narrow group-settings">
      <SettingsHeader groupid={groupid} groupName={group.groupName} level={level} />
      <div className="card gs-card">
        <TabView activeIndex={active} onTabChange={(event) => onSelectTab(event.index)} renderActiveOnly>
          {GROUP_SETTINGS_TABS.map((name) => (
            <TabPanel key={name} header={<TabLabel tab={name} />} visible={tabVisible(name, level)}>
              {name === 'name' && (
                <NameTab groupid={groupid} groupName={group.groupName} myPermission={level} onDeleted={onDeleted} />
              )}
              {name === 'members' && (
                <MembersTab
                  groupid={groupid}
                  groupName={group.groupName}
                  myPermission={level}
                  myUserId={user?.userId}
                  onRemovedSelf={onRemovedSelf}
                />
              )}
              {name === 'devices' && (
                <DevicesTab
                  groupid={groupid}
                  groupName={group.groupName}
                  myPermission={level}
                  deviceSummaries={group.deviceSummaries}
                  groups={groups}
                />
              )}
              {name === 'serverlog' && <ServerLogTab groupid={groupid} />}
            </TabPanel>
          ))}
        </TabView>
      </div>
    </div>
  );
}

function TabLabel({ tab }: { tab: GroupSettingsTab }) {
  const short = SHORT_TAB_LABELS[tab];
  if (!short) return TAB_LABELS[tab];
  return (
    <>
      <span className="tab-label-long">{TAB_LABELS[tab]}</span>
      <span className="tab-label-short">{short}</span>
    </>
  );
}

function SettingsHeader({ groupid, groupName, level }: { groupid: string; groupName?: string; level?: string }) {
  return (
    <header className="page-header gs-header">
      <Link className="gs-back" to={`/group/${encodeURIComponent(groupid)}`}>
        <i className="pi pi-arrow-left" aria-hidden="true" />
        {groupName ? `Back to ${groupName}` : 'Back to the group'}
      </Link>
      <div className="gs-title-row">
        <h1 className="page-title">Group Settings</h1>
        {level && (
          <span className="badge gs-level-badge" title="Your level in this group">
            {level}
          </span>
        )}
      </div>
      {groupName && <p className="page-subtitle">{groupName}</p>}
    </header>
  );
}

function GroupNotFound() {
  return (
    <NotFoundScreen title={GROUP_MESSAGES.notFound}>
      <p>There is no such group in your account. Ask one of its ADMINs to share it with you.</p>
    </NotFoundScreen>
  );
}
