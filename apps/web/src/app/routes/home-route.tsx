import { Navigate } from 'react-router';
import { ERROR_LOADING_DATA, homeRedirectFor } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { useGroups } from '@/features/groups/api/get-groups';
import { GroupList, GroupListSkeleton } from '@/features/groups/components/group-list';
import { WelcomePanel } from '@/features/groups/components/welcome-panel';
import { DeviceListsButton } from '@/features/recent-devices/components/device-lists-button';

/** Home: provisioning accounts go to /sqprov; no groups shows the welcome panel; else the groups. */
export function HomeRoute() {
  const { session } = useAuth();
  const groups = useGroups();
  const redirect = homeRedirectFor(session.userGroups);
  if (redirect) return <Navigate replace to={redirect} />;

  if (groups.isPending) {
    return (
      <div className="page">
        <GroupListSkeleton />
      </div>
    );
  }
  if (groups.isError) {
    return (
      <div className="page">
        <section className="card empty-state" role="alert">
          <p>{ERROR_LOADING_DATA}</p>
          <button type="button" className="p-button p-button-outlined" onClick={() => void groups.refetch()}>
            Try again
          </button>
        </section>
      </div>
    );
  }
  const list = groups.data;
  return (
    <div className="page">
      <div className="home-toolbar">
        <DeviceListsButton />
      </div>
      {list.length === 0 ? <WelcomePanel /> : <GroupList groups={list} />}
    </div>
  );
}
