import { useCallback } from 'react';
import { Navigate, useParams } from 'react-router';
import { isDeviceRouteId } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { typedDeviceIdState } from '@/features/device-data/api/device-not-found';
import { DeviceSubPage } from '@/features/device-data/components/device-sub-page';
import { UsersPanel } from '@/features/device-users/components/users-panel';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

/** /users/{deviceid}: the device's Users and Permissions page (ADMIN edits, USER reads; the server decides). */
export function UsersRoute() {
  const { deviceid = '' } = useParams();
  const { session, user } = useAuth();
  const onOpened = useCallback((name: string) => recordRecentDevice(deviceid, name), [deviceid]);
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper))
    return <Navigate replace to={`/users/${upper}`} state={typedDeviceIdState(deviceid)} />;
  if (!isDeviceRouteId(deviceid)) return <NotFound />;
  return (
    <DeviceSubPage
      key={deviceid}
      deviceid={deviceid}
      page="Users and Permissions"
      userGroups={session.userGroups}
      onOpened={onOpened}
    >
      {({ access, name }) => <UsersPanel deviceid={deviceid} name={name} access={access} myUserId={user?.userId} />}
    </DeviceSubPage>
  );
}
