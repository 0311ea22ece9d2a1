import { useEffect } from 'react';
import { Link } from 'react-router';
import { DEVICE_MESSAGES } from '@portal/core';
import { NotFoundScreen } from '@/components/ui/not-found-screen';

/**
 * The device page of a device that does not exist or is not the user's: one message and the way
 * home, without the device's header, badges or cards (the server answers both alike, so this
 * says nothing about which it is).
 */
export function DeviceNotFound({ deviceid, baseTitle }: { deviceid: string; baseTitle: string }) {
  useEffect(() => {
    document.title = `${baseTitle} - ${DEVICE_MESSAGES.notFound}`;
  }, [baseTitle]);
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
        There is no device <span className="dp-id">{deviceid}</span> in your account. Check the id, add the device with
        its setup password, or ask its administrator to share it with you.
      </p>
    </NotFoundScreen>
  );
}
