import { Link, Navigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { DEVICE_MESSAGES, isDeviceRouteId, planState, supportAttachment } from '@portal/core';
import { NotFoundScreen } from '@/components/ui/not-found-screen';
import { useAuth } from '@/lib/auth/auth-context';
import { deviceSettingsQueryOptions } from '@/features/device-data/api/device-settings';
import { isDeviceNotFound } from '@/features/device-data/api/device-not-found';
import { SupportPage, SupportSkeleton } from '@/features/support/components/support-page';
import { NotFound } from '../not-found';

/**
 * /support and /support/{deviceid} (RTE-16): the Support page, the second about the device (a
 * 9-character device id or a virtual device's '0-' id; lower case is sent to the upper-case
 * address). The device's settings give its name and what goes with the request; a device that is
 * not the user's shows the device not-found screen with the way to a request without it.
 */
export function SupportRoute() {
  const { deviceid } = useParams();
  const { user } = useAuth();
  const email = user?.email ?? '';
  if (deviceid === undefined) return <SupportPage email={email} device={null} />;
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDeviceRouteId(upper)) return <Navigate replace to={`/support/${upper}`} />;
  if (!isDeviceRouteId(deviceid)) return <NotFound />;
  return <DeviceSupport key={deviceid} deviceid={deviceid} email={email} />;
}

function DeviceSupport({ deviceid, email }: { deviceid: string; email: string }) {
  // The page shows a failure itself: no toast.
  const settings = useQuery({ ...deviceSettingsQueryOptions(deviceid), meta: { silent: true } });
  if (settings.isPending) return <SupportSkeleton />;
  if (settings.isError) {
    if (isDeviceNotFound(settings.error)) {
      return (
        <NotFoundScreen
          title={DEVICE_MESSAGES.notFound}
          moreActions={
            <Link className="p-button p-button-outlined" to="/support">
              Contact support without a device
            </Link>
          }
        >
          <p>
            There is no device <span className="dp-id">{deviceid}</span> in your account. You can still send a support
            request without naming a device.
          </p>
        </NotFoundScreen>
      );
    }
    // The settings could not be read: the request can still go about the device; the server decides what goes with it.
    return <SupportPage email={email} device={{ deviceid, name: deviceid, attachment: null }} />;
  }
  const { deviceSettings, myPermission } = settings.data;
  const plan = planState({ tier: deviceSettings.tier }, Date.now()).plan;
  return (
    <SupportPage
      email={email}
      device={{
        deviceid,
        name: deviceSettings.PORTAL_deviceName || deviceid,
        attachment: supportAttachment(myPermission, plan),
      }}
    />
  );
}
