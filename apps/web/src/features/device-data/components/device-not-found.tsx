import { Link, useLocation } from 'react-router';
import { DEVICE_MESSAGES } from '@portal/core';
import { NotFoundScreen } from '@/components/ui/not-found-screen';
import { deviceIdAsTyped } from '../api/device-not-found';
import { usePageTitle } from '@/lib/page-title';

/**
 * The device page of a device that does not exist or is not the user's: one message and the way
 * home, without the device's header, badges or cards (the server answers both alike, so this
 * says nothing about which it is). The id is shown as the user typed it (the route's redirect to
 * the upper-case id carries it), and no error toast comes over this message.
 */
export function DeviceNotFound({ deviceid }: { deviceid: string }) {
  const typed = deviceIdAsTyped(useLocation().state, deviceid);
  usePageTitle(DEVICE_MESSAGES.notFound);
  return (
    <NotFoundScreen
      title={DEVICE_MESSAGES.notFound}
      moreActions={
        <Link className="p-button p-button-outlined" to={`/add?device=${encodeURIComponent(deviceid)}`}>
          Add a device
        </Link>
      }
    >
      <p>
        There is no device <span className="dp-id">{typed}</span> in your account. Check the id, add the device with its
        setup password, or ask its administrator to share it with you.
      </p>
    </NotFoundScreen>
  );
}
