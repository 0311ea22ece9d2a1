import { useCallback } from 'react';
import { Navigate, useParams } from 'react-router';
import { isDeviceRouteId, type DeviceRole } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { configSettings, useDeviceConfig } from '@/features/device-data/api/device-config';
import { typedDeviceIdState } from '@/features/device-data/api/device-not-found';
import { DeviceSubPage } from '@/features/device-data/components/device-sub-page';
import { ScriptPanel } from '@/features/device-script/components/script-panel';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

/** /script/{deviceid}: the device's Scripting page (ADMIN and USER; the server decides). */
export function ScriptRoute() {
  const { deviceid = '' } = useParams();
  const { session, user } = useAuth();
  const onOpened = useCallback((name: string) => recordRecentDevice(deviceid, name), [deviceid]);
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper))
    return <Navigate replace to={`/script/${upper}`} state={typedDeviceIdState(deviceid)} />;
  if (!isDeviceRouteId(deviceid)) return <NotFound />;
  return (
    <DeviceSubPage
      key={deviceid}
      deviceid={deviceid}
      page="Scripting"
      userGroups={session.userGroups}
      onOpened={onOpened}
    >
      {({ access }) => <ScriptContent deviceid={deviceid} role={access.role} userId={user?.userId ?? ''} />}
    </DeviceSubPage>
  );
}

/** The page with the device's firmware from its config (the frame's cached answer). */
function ScriptContent({ deviceid, role, userId }: { deviceid: string; role: DeviceRole; userId: string }) {
  const config = useDeviceConfig(deviceid);
  const device = configSettings(config.data).device as { fw?: unknown } | undefined;
  const firmware = typeof device?.fw === 'string' && device.fw !== '' ? device.fw : null;
  return <ScriptPanel deviceid={deviceid} firmware={firmware} role={role} userId={userId} />;
}
