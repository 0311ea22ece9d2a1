import { useCallback } from 'react';
import { Navigate, useParams } from 'react-router';
import { isDeviceRouteId } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { typedDeviceIdState } from '@/features/device-data/api/device-not-found';
import { DeviceSubPage } from '@/features/device-data/components/device-sub-page';
import { RawDataPanel } from '@/features/device-raw-data/components/raw-data-panel';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

/** /raw/{deviceid}: the device's Raw Data page (its records, their JSON, export and import). */
export function RawRoute() {
  const { deviceid = '' } = useParams();
  const { session } = useAuth();
  const onOpened = useCallback((name: string) => recordRecentDevice(deviceid, name), [deviceid]);
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper))
    return <Navigate replace to={`/raw/${upper}`} state={typedDeviceIdState(deviceid)} />;
  if (!isDeviceRouteId(deviceid)) return <NotFound />;
  return (
    <DeviceSubPage
      key={deviceid}
      deviceid={deviceid}
      page="Raw Data"
      userGroups={session.userGroups}
      onOpened={onOpened}
    >
      {({ access, settings, name }) => (
        <RawDataPanel
          deviceid={deviceid}
          name={name}
          displaySettings={settings.deviceSettings.PORTAL_displaySettings}
          canImport={access.editDeviceSettings}
          dataRestricted={access.dataRestricted}
        />
      )}
    </DeviceSubPage>
  );
}
