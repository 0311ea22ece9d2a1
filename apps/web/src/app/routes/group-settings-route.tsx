import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import type { GroupSummary } from '@portal/core';
import { GroupSettingsPage } from '@/features/group-settings/components/group-settings-page';
import { parseTabIndex } from '@/features/group-settings/utils/tabs';
import { groupQueryOptions } from '@/features/groups/api/get-group';
import { useGroups } from '@/features/groups/api/get-groups';
import { forgetRecentEntry } from '@/features/recent-devices/hooks/use-device-lists';
import * as queryKeys from '@/lib/query-keys';

/**
 * /group/{groupid}/settings and /group/{groupid}/settings/{tabindex}: group settings. Leaving the
 * group (REMOVED_SELF, GRP-07) or deleting it refreshes the user's groups, drops the group from
 * the recent list and goes home; the group's own queries are dropped, never refetched into a 404.
 */
export function GroupSettingsRoute() {
  const { groupid = '', tabindex } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Set once the group is left or deleted: nothing of it is read again, and the page goes blank
  // (unmounting the tabs' queries) while home loads.
  const [gone, setGone] = useState(false);
  const group = useQuery({
    ...groupQueryOptions(groupid),
    enabled: !gone,
    // The page shows a failure itself: the server's message or 'Error Loading Data' (GRP-13), or not found.
    meta: { silent: true },
  });
  const groups = useGroups();

  useEffect(() => {
    if (!gone) return;
    // After the commit that unmounted the tabs, so no observer fetches the group again.
    queryClient.removeQueries({ queryKey: queryKeys.group.all(groupid) });
  }, [gone, groupid, queryClient]);

  if (gone) return null;

  const leave = () => {
    setGone(true);
    forgetRecentEntry(groupid);
    // Home must not pick the group from the cached list while GET /groups is on its way.
    queryClient.setQueryData<GroupSummary[]>(queryKeys.groups.all, (list) =>
      list?.filter((g) => g.groupid !== groupid),
    );
    void queryClient.invalidateQueries({ queryKey: queryKeys.groups.all });
    void navigate('/', { replace: true });
  };

  const base = `/group/${encodeURIComponent(groupid)}/settings`;
  return (
    <GroupSettingsPage
      key={groupid}
      groupid={groupid}
      tabIndex={parseTabIndex(tabindex)}
      onSelectTab={(index) => void navigate(index === 0 ? base : `${base}/${index}`)}
      group={group.data}
      groupError={group.error}
      onRetry={() => void group.refetch()}
      groups={groups.data}
      onRemovedSelf={leave}
      onDeleted={leave}
    />
  );
}
