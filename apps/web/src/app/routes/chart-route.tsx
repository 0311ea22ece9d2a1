import { useCallback } from 'react';
import { Navigate, useParams } from 'react-router';
import { CHART_KEY_PATTERN, isDeviceRouteId } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { baseTitle } from '@/lib/brand';
import { DeviceSubPage } from '@/features/device-data/components/device-sub-page';
import { DeviceChartPage } from '@/features/device-chart/components/device-chart-page';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

/**
 * /chart/{deviceid}/chart{n}: a device's custom chart page (spec 2 section 2), in the device
 * sub-page frame; a chart id that is not chart1 ... chart999 is not a page.
 */
export function ChartRoute() {
  const { deviceid = '', chartid = '' } = useParams();
  const { session } = useAuth();
  const onOpened = useCallback((name: string) => recordRecentDevice(deviceid, name), [deviceid]);
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper)) return <Navigate replace to={`/chart/${upper}/${chartid}`} />;
  if (!isDeviceRouteId(deviceid) || !CHART_KEY_PATTERN.test(chartid)) return <NotFound />;
  return (
    <DeviceSubPage
      key={deviceid}
      deviceid={deviceid}
      page="Chart"
      userGroups={session.userGroups}
      baseTitle={baseTitle}
      onOpened={onOpened}
    >
      {({ access, settings, name }) => (
        <DeviceChartPage
          key={chartid}
          deviceid={deviceid}
          chartKey={chartid}
          settings={settings}
          access={access}
          deviceName={name}
        />
      )}
    </DeviceSubPage>
  );
}
