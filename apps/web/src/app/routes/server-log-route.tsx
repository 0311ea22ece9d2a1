import { useCallback } from 'react';
import { Navigate, useParams } from 'react-router';
import { isDeviceRouteId } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { typedDeviceIdState } from '@/features/device-data/api/device-not-found';
import { DeviceSubPage } from '@/features/device-data/components/device-sub-page';
import { ServerLogPanel } from '@/features/device-server-log/components/server-log-panel';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

/** /serverlog/{deviceid}: the device's Server Log page (ADMIN, on a plan with a server log; the server decides). */
export function ServerLogRoute() {
  const { deviceid = '' } = useParams();
  const { session } = useAuth();
  const onOpened = useCallback((name: string) => recordRecentDevice(deviceid, name), [deviceid]);
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper))
    return <Navigate replace to={`/serverlog/${upper}`} state={typedDeviceIdState(deviceid)} />;
  if (!isDeviceRouteId(deviceid)) return <NotFound />;
  return (
    <DeviceSubPage
      key={deviceid}
      deviceid={deviceid}
      page="Server Log"
      userGroups={session.userGroups}
      onOpened={onOpened}
    >
      {({ name }) => <ServerLogPanel deviceid={deviceid} name={name} />}
    </DeviceSubPage>
  );
}
