import { Suspense, lazy, useCallback } from 'react';
import { Navigate, useParams } from 'react-router';
import { PORTAL_SETTINGS_LOAD_ERROR, can, isDeviceRouteId } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { typedDeviceIdState } from '@/features/device-data/api/device-not-found';
import { DeviceSubPage } from '@/features/device-data/components/device-sub-page';
import { DeviceSettingsPanel } from '@/features/device-settings/components/device-settings-panel';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

// The admin settings load only for a device's ADMIN (SUB-04).
const AdminSettings = lazy(() =>
  import('@/features/device-admin-settings/components/admin-settings').then((m) => ({ default: m.AdminSettings })),
);

/**
 * /config/{deviceid}: the device's Settings page (spec 2 sections 2, 3, 6 and 8): the config by
 * section for everyone on the device (editable by ADMIN and USER), then the admin settings for its
 * ADMIN. The server decides every call again.
 */
export function ConfigRoute() {
  const { deviceid = '' } = useParams();
  const { session } = useAuth();
  const onOpened = useCallback((name: string) => recordRecentDevice(deviceid, name), [deviceid]);
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper))
    return <Navigate replace to={`/config/${upper}`} state={typedDeviceIdState(deviceid)} />;
  if (!isDeviceRouteId(deviceid)) return <NotFound />;
  return (
    <DeviceSubPage
      key={deviceid}
      deviceid={deviceid}
      page="Settings"
      userGroups={session.userGroups}
      onOpened={onOpened}
      settingsError={PORTAL_SETTINGS_LOAD_ERROR}
    >
      {({ access, settings, name }) => (
        <>
          <DeviceSettingsPanel deviceid={deviceid} access={access} />
          {can(access.role, 'adminSettings') && (
            <Suspense
              fallback={
                <div className="card skeleton dp-sub-skeleton" role="status" aria-label="Loading the admin settings" />
              }
            >
              <AdminSettings deviceid={deviceid} name={name} access={access} settings={settings} />
            </Suspense>
          )}
        </>
      )}
    </DeviceSubPage>
  );
}
