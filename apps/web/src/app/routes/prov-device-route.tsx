import { Navigate, useParams } from 'react-router';
import { isDevicePathId } from '@portal/core';
import { ProvDevicePage } from '@/features/provisioning/components/prov-device-page';
import { NotFound } from '../not-found';

/** /sqprov/{deviceid} (STAFF-02, STAFF-07): a device's provisioning record and log; a lower-case id goes to the upper-case address. */
export function ProvDeviceRoute() {
  const { deviceid = '' } = useParams();
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isDevicePathId(upper)) return <Navigate replace to={`/sqprov/${upper}`} />;
  if (!isDevicePathId(deviceid)) return <NotFound />;
  return <ProvDevicePage key={deviceid} deviceid={deviceid} />;
}
