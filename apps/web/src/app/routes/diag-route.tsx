import { useCallback } from 'react';
import { Navigate, useParams } from 'react-router';
import { isDeviceRouteId } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { typedDeviceIdState } from '@/features/device-data/api/device-not-found';
import { DeviceSubPage } from '@/features/device-data/components/device-sub-page';
import { DiagnosticsPanel } from '@/features/device-diagnostics/components/diagnostics-panel';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

/** /diag/{deviceid}: the device's Diagnostics page (ADMIN and USER; the server decides). */
export function DiagRoute() {
  const { deviceid = '' } = useParams();
  const { session } = useAuth();
  const onOpened = useCallback((name: string) => recordRecentDevice(deviceid, name), [deviceid]);
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper))
    return <Navigate replace to={`/diag/${upper}`} state={typedDeviceIdState(deviceid)} />;
  if (!isDeviceRouteId(deviceid)) return <NotFound />;
  return (
    <DeviceSubPage
      key={deviceid}
      deviceid={deviceid}
      page="Diagnostics"
      userGroups={session.userGroups}
      onOpened={onOpened}
    >
      {({ name }) => <DiagnosticsPanel deviceid={deviceid} name={name} />}
    </DeviceSubPage>
  );
}
