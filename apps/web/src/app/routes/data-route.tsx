import { useCallback } from 'react';
import { Navigate, useParams } from 'react-router';
import { isDevicePathId } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { baseTitle } from '@/lib/brand';
import { DataPage } from '@/features/device-data/components/data-page';
import { FavouriteDeviceButton } from '@/features/recent-devices/components/favourite-device-button';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

/** /data/{deviceid} and /{groupid}/data/{deviceid}: the device's Data page; opening it records it as recent. */
export function DataRoute() {
  const { deviceid = '' } = useParams();
  const { session } = useAuth();
  const onOpened = useCallback((name: string) => recordRecentDevice(deviceid, name), [deviceid]);
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDevicePathId(upper)) return <Navigate replace to={`/data/${upper}`} />;
  if (!isDevicePathId(deviceid)) return <NotFound />;
  return (
    <DataPage
      key={deviceid}
      deviceid={deviceid}
      userGroups={session.userGroups}
      baseTitle={baseTitle}
      onOpened={onOpened}
      headerActions={({ name }) => <FavouriteDeviceButton deviceid={deviceid} name={name} />}
    />
  );
}
