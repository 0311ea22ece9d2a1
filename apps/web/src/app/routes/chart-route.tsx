import { useCallback } from 'react';
import { Navigate, useParams } from 'react-router';
import { CHART_KEY_PATTERN, isDeviceRouteId } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { typedDeviceIdState } from '@/features/device-data/api/device-not-found';
import { DeviceSubPage } from '@/features/device-data/components/device-sub-page';
import { DeviceChartPage, NewDeviceChart } from '@/features/device-chart/components/device-chart-page';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

/**
 * /chart/{deviceid}/chart{n}: a device's custom chart page (spec 2 section 2), in the device
 * sub-page frame; /chart/{deviceid}/new opens the next free chart{n} (as /widget/{deviceid}/new
 * does); any other chart id is not a page.
 */
export function ChartRoute() {
  const { deviceid = '', chartid = '' } = useParams();
  const { session } = useAuth();
  const onOpened = useCallback((name: string) => recordRecentDevice(deviceid, name), [deviceid]);
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper))
    return <Navigate replace to={`/chart/${upper}/${chartid}`} state={typedDeviceIdState(deviceid)} />;
  if (!isDeviceRouteId(deviceid) || (chartid !== 'new' && !CHART_KEY_PATTERN.test(chartid))) return <NotFound />;
  return (
    <DeviceSubPage key={deviceid} deviceid={deviceid} page="Chart" userGroups={session.userGroups} onOpened={onOpened}>
      {({ access, settings, name }) =>
        chartid === 'new' ? (
          <NewDeviceChart deviceid={deviceid} settings={settings} />
        ) : (
          <DeviceChartPage
            key={chartid}
            deviceid={deviceid}
            chartKey={chartid}
            settings={settings}
            access={access}
            deviceName={name}
          />
        )
      }
    </DeviceSubPage>
  );
}
