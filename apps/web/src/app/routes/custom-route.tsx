import { Navigate, useLocation, useParams } from 'react-router';
import { useQueries } from '@tanstack/react-query';
import { customPageOf, isDeviceRouteId, type CustomPage } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { CustomDeviceNotFound, CustomLoadError, CustomSkeleton } from '@/features/custom-pages/components/custom-frame';
import { KioskPicker, type KioskChoice } from '@/features/custom-pages/components/kiosk-picker';
import { SecurifiedView } from '@/features/custom-pages/components/securified-view';
import { VibracorderView } from '@/features/custom-pages/components/vibracorder-view';
import { groupQueryOptions } from '@/features/groups/api/get-group';
import { useGroups } from '@/features/groups/api/get-groups';
import { useDeviceLists } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';
import { useLiveDevice } from './custom-live-device';

/**
 * The custom device pages (spec 1 sections 1 and 2; docs/decisions.md 'Custom pages'), in the
 * bare shell (no navigation bar or footer): /custom/vibracorder/{deviceid} the vibration view,
 * /custom/securified/{deviceid} the kiosk, /custom/securified the kiosk's device picker, and
 * /custom/{home_page}/{deviceid} the page a device's notes home_page names (word characters
 * only, core customPageOf); an unknown name shows 'Page not found!'.
 */
export function CustomRoute({ page }: { page?: CustomPage }) {
  const { deviceid, homePage } = useParams();
  const { pathname } = useLocation();
  const chosen = page ?? customPageOf(homePage);
  if (chosen === null) return <NotFound />;
  if (deviceid === undefined) return chosen === 'securified' ? <KioskPickerPage /> : <NotFound />;
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper)) {
    return <Navigate replace to={`${pathname.slice(0, pathname.lastIndexOf('/'))}/${upper}`} />;
  }
  if (!isDeviceRouteId(deviceid)) return <NotFound />;
  return <LiveCustomPage key={deviceid} page={chosen} deviceid={deviceid} />;
}

const LOADING_LABELS: Record<CustomPage, string> = {
  vibracorder: 'Loading the vibration view',
  securified: 'Loading the kiosk',
};

function LiveCustomPage({ page, deviceid }: { page: CustomPage; deviceid: string }) {
  const { session } = useAuth();
  const live = useLiveDevice(deviceid, session.userGroups);
  switch (live.state) {
    case 'loading':
      return <CustomSkeleton label={LOADING_LABELS[page]} />;
    case 'notFound':
      return <CustomDeviceNotFound deviceid={deviceid} />;
    case 'error':
      return <CustomLoadError message="The device's readings could not be loaded." onRetry={live.retry} />;
    case 'ready':
      return page === 'vibracorder' ? (
        <VibracorderView device={live.device} />
      ) : (
        <SecurifiedView device={live.device} />
      );
  }
}

/** The kiosk's device picker: the devices of the user's groups, then favourite and recent devices. */
function KioskPickerPage() {
  const groups = useGroups();
  const groupQueries = useQueries({ queries: (groups.data ?? []).map((g) => groupQueryOptions(g.groupid)) });
  const lists = useDeviceLists();
  const loading = groups.isPending || groupQueries.some((q) => q.isPending);
  const seen = new Map<string, KioskChoice>();
  for (const group of groupQueries.map((q) => q.data)) {
    if (!group) continue;
    const entries = Object.entries(group.deviceSummaries).sort(([, a], [, b]) => a.name.localeCompare(b.name));
    for (const [id, summary] of entries) {
      if (!seen.has(id)) seen.set(id, { deviceid: id, name: summary.name || id, source: group.groupName });
    }
  }
  for (const [list, source] of [
    [lists.favourites, 'Favourite'],
    [lists.recent, 'Recent'],
  ] as const) {
    for (const entry of list) {
      if (isDeviceRouteId(entry.id) && !seen.has(entry.id)) {
        seen.set(entry.id, { deviceid: entry.id, name: entry.name || entry.id, source });
      }
    }
  }
  return <KioskPicker devices={[...seen.values()]} loading={loading} />;
}
