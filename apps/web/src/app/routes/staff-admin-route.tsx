import { Navigate, useParams } from 'react-router';
import { isStaffDeviceId } from '@portal/core';
import { StaffSearchPage } from '@/features/staff-admin/components/staff-search-page';
import { StaffDevicePage } from '@/features/staff-admin/components/staff-device-page';
import { NotFound } from '../not-found';

/**
 * /sqadmin and /sqadmin/{deviceid} (STAFF-01; staff admins, RequireStaffPage): the search, and a
 * device as staff see it (a lower-case id goes to the upper-case address; anything that is no
 * device id is the not-found screen).
 */
export function StaffAdminRoute() {
  const { deviceid } = useParams();
  if (deviceid === undefined) return <StaffSearchPage />;
  const upper = deviceid.toUpperCase();
  if (upper !== deviceid && isStaffDeviceId(upper)) return <Navigate replace to={`/sqadmin/${upper}`} />;
  if (!isStaffDeviceId(deviceid)) return <NotFound />;
  return <StaffDevicePage key={deviceid} deviceid={deviceid} />;
}
