import { Suspense, lazy, useCallback, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { customPagePath, isDeviceRouteId } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { brand } from '@/lib/brand';
import { typedDeviceIdState } from '@/features/device-data/api/device-not-found';
import { DataPage } from '@/features/device-data/components/data-page';
import { CommandQueueCard } from '@/features/device-commands/components/command-queue-card';
import { AssetNotesDialog } from '@/features/device-notes/components/asset-notes-dialog';
import { RegulatoryDialog } from '@/features/device-notes/components/regulatory-dialog';
import { FccStatement } from '@/features/fcc/components/fcc-statement';
import { FavouriteDeviceButton } from '@/features/recent-devices/components/favourite-device-button';
import { AlertsButton } from '@/features/device-alerts/components/alerts-button';
import { DeviceWidgetCards } from '@/features/device-widget/components/device-widget-cards';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

// The charts (uPlot) load after the readings: the page's first paint does not wait for them.
const DeviceChartCards = lazy(() =>
  import('@/features/device-chart/components/device-chart-cards').then((m) => ({ default: m.DeviceChartCards })),
);

/** The custom page the device's notes home_page names (/custom/{home_page}/{deviceid}), when they name one. */
function CustomPageLink({ deviceid, homePage }: { deviceid: string; homePage: unknown }) {
  const path = customPagePath(homePage, deviceid);
  if (path === null) return null;
  return (
    <Link className="p-button p-button-sm p-button-text" to={path}>
      <i className="pi pi-desktop" aria-hidden="true" /> Custom Page
    </Link>
  );
}

/**
 * /data/{deviceid} and /{groupid}/data/{deviceid}: the device's Data page with its favourite
 * star, Asset Notes, the caller's Alerts and (default brand only) Regulatory Information, and the command queue below
 * the readings; opening it records the device as recent.
 */
export function DataRoute() {
  const { deviceid = '' } = useParams();
  const { session } = useAuth();
  const [dialog, setDialog] = useState<'notes' | 'regulatory' | null>(null);
  const onOpened = useCallback((name: string) => recordRecentDevice(deviceid, name), [deviceid]);
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper))
    return <Navigate replace to={`/data/${upper}`} state={typedDeviceIdState(deviceid)} />;
  if (!isDeviceRouteId(deviceid)) return <NotFound />;
  const hide = () => setDialog(null);
  return (
    <DataPage
      key={deviceid}
      deviceid={deviceid}
      userGroups={session.userGroups}
      onOpened={onOpened}
      footer={({ access }) => <CommandQueueCard deviceid={deviceid} role={access.role} />}
      authoredCards={(ctx) => (
        <>
          <DeviceWidgetCards
            deviceid={ctx.deviceid}
            displaySettings={ctx.displaySettings}
            latest={ctx.latest}
            tier={ctx.tier}
            access={ctx.access}
            stale={ctx.stale}
            config={ctx.config}
            nowMs={ctx.nowMs}
          />
          <Suspense fallback={null}>
            <DeviceChartCards
              deviceid={ctx.deviceid}
              displaySettings={ctx.displaySettings}
              latest={ctx.latest}
              tier={ctx.tier}
              access={ctx.access}
            />
          </Suspense>
        </>
      )}
      headerActions={({ name, notes, canEditNotes, model }) => (
        <>
          <FavouriteDeviceButton deviceid={deviceid} name={name} />
          <button type="button" className="p-button p-button-sm p-button-text" onClick={() => setDialog('notes')}>
            <i className="pi pi-file-edit" aria-hidden="true" /> Asset Notes
          </button>
          <AlertsButton deviceid={deviceid} />
          <CustomPageLink deviceid={deviceid} homePage={notes.home_page} />
          {brand.showRegulatoryInfo && (
            <button
              type="button"
              className="p-button p-button-sm p-button-text"
              onClick={() => setDialog('regulatory')}
            >
              <i className="pi pi-verified" aria-hidden="true" /> Regulatory
            </button>
          )}
          <AssetNotesDialog
            deviceid={deviceid}
            notes={notes}
            canEdit={canEditNotes}
            visible={dialog === 'notes'}
            onHide={hide}
          />
          {brand.showRegulatoryInfo && (
            <RegulatoryDialog visible={dialog === 'regulatory'} onHide={hide} model={model ?? undefined}>
              <FccStatement />
            </RegulatoryDialog>
          )}
        </>
      )}
    />
  );
}
