import { useCallback, useMemo } from 'react';
import { Navigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  WIDGET_KEY_PATTERN,
  contactStatus,
  appliedIntervalSeconds,
  isDeviceRouteId,
  nextWidgetKey,
  showsLastKnownValues,
  type DeviceAccess,
  type DeviceSettingsResponse,
} from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { configSettings, useDeviceConfig } from '@/features/device-data/api/device-config';
import { deviceSettingsQueryOptions, useDeviceSettings } from '@/features/device-data/api/device-settings';
import { typedDeviceIdState } from '@/features/device-data/api/device-not-found';
import { DeviceSubPage } from '@/features/device-data/components/device-sub-page';
import { useNow } from '@/lib/use-now';
import { WidgetNotice, WidgetPage, widgetTitle } from '@/features/device-widget/components/widget-page';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

/** How often the page reads the device's latest values again (the settings call's DATA_latest). */
const LIVE_REFRESH_MS = 15_000;

/**
 * /widget/{deviceid}/widget{n}: a device's widget card page (spec 2 section 2) in the device
 * sub-page frame, titled with the card's name; /widget/{deviceid}/new opens the next free
 * widget{n} (or says the device has 99). The card is drawn from the device's latest values, read
 * again every 15 s, and its config (for {cfg.PATH} texts).
 */
export function WidgetRoute() {
  const { deviceid = '', widgetid = '' } = useParams();
  const { session } = useAuth();
  const onOpened = useCallback((name: string) => recordRecentDevice(deviceid, name), [deviceid]);
  const settings = useDeviceSettings(deviceid).data;
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper))
    return <Navigate replace to={`/widget/${upper}/${widgetid}`} state={typedDeviceIdState(deviceid)} />;
  if (!isDeviceRouteId(deviceid) || (widgetid !== 'new' && !WIDGET_KEY_PATTERN.test(widgetid))) return <NotFound />;
  const stored = settings?.deviceSettings.PORTAL_displaySettings[widgetid];
  return (
    <DeviceSubPage
      key={deviceid}
      deviceid={deviceid}
      page="Widget"
      pageTitle={widgetid === 'new' ? 'New widget' : widgetTitle(stored, widgetid)}
      userGroups={session.userGroups}
      onOpened={onOpened}
    >
      {({ access, settings: record }) =>
        widgetid === 'new' ? (
          <NewWidget deviceid={deviceid} settings={record} />
        ) : (
          <LiveWidgetPage key={widgetid} deviceid={deviceid} widgetKey={widgetid} access={access} />
        )
      }
    </DeviceSubPage>
  );
}

/** /widget/{deviceid}/new: to the next free widget{n}, or the 99-widget message. */
function NewWidget({ deviceid, settings }: { deviceid: string; settings: DeviceSettingsResponse }) {
  const next = nextWidgetKey(settings.deviceSettings.PORTAL_displaySettings);
  if (!next.ok) return <WidgetNotice deviceid={deviceid} message={next.error} />;
  return <Navigate replace to={`/widget/${encodeURIComponent(deviceid)}/${next.value}`} />;
}

/** The widget page with the device's values kept fresh and whether they are last known ones. */
function LiveWidgetPage({
  deviceid,
  widgetKey,
  access,
}: {
  deviceid: string;
  widgetKey: string;
  access: DeviceAccess;
}) {
  const settingsQuery = useQuery({ ...deviceSettingsQueryOptions(deviceid), refetchInterval: LIVE_REFRESH_MS });
  const configQuery = useDeviceConfig(deviceid);
  const nowMs = useNow(LIVE_REFRESH_MS, settingsQuery.dataUpdatedAt);
  const settings = settingsQuery.data;
  const latest = settings?.deviceSettings.DATA_latest;
  const newestS = useMemo(() => {
    const times = Object.values(latest ?? {})
      .map((p) => p.ts)
      .filter(Number.isFinite);
    return times.length > 0 ? Math.max(...times) : null;
  }, [latest]);
  if (!settings) return null;
  const intervalS = configQuery.data ? appliedIntervalSeconds(configQuery.data.config) : null;
  const stale = showsLastKnownValues(contactStatus({ lastRecordS: newestS, intervalS }, nowMs));
  return (
    <WidgetPage
      deviceid={deviceid}
      widgetKey={widgetKey}
      settings={settings}
      access={access}
      config={configQuery.data ? configSettings(configQuery.data) : undefined}
      stale={stale}
      nowMs={nowMs}
    />
  );
}
