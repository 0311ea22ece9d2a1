/**
 * /sqadmin/{deviceid} (STAFF-01, STAFF-12; DESIGN.md section 5 billing): a device as staff see
 * it: its plan, trial and distributor; every user with their role and where it comes from; its
 * groups; its subscription and invoices (GET /billing-admin-device/{id}, marking open ones paid);
 * its newest server-log lines. Staff change the plan (POST /billing-update-plan, confirmed, with
 * a reason) and run the distributor actions (reset the trial, add without password: 'Success'
 * with the server's message and a reload, or 'Error', DLG-30/31). This file loads the device and
 * shows its loading, not-found and error states; the dossier is staff-device-dossier.tsx.
 */
import { Link } from 'react-router';
import { DEVICE_MESSAGES, loadErrorDetail } from '@portal/core';
import { NotFoundScreen } from '@/components/ui/not-found-screen';
import { ApiError } from '@/lib/api';
import { usePageTitle } from '@/lib/page-title';
import { useStaffDevice } from '../api/staff-device';
import { StaffHeader, StaffLoadError, StaffSkeleton } from './staff-bits';
import { StaffDeviceDossier } from './staff-device-dossier';
import './staff.css';

/** The staff device page: the device's loading, not-found and error states, else its dossier. */
export function StaffDevicePage({ deviceid }: { deviceid: string }) {
  const device = useStaffDevice(deviceid);
  usePageTitle('Staff Admin', deviceid);

  if (device.isPending) {
    return (
      <div className="page staff">
        <StaffHeader title={deviceid} subtitle="Loading the device…" />
        <StaffSkeleton cards={3} />
      </div>
    );
  }
  if (device.isError) {
    if (device.error instanceof ApiError && device.error.status === 404) {
      return (
        <NotFoundScreen
          title={DEVICE_MESSAGES.notFound}
          moreActions={
            <Link className="p-button p-button-outlined" to="/sqadmin">
              Search again
            </Link>
          }
        >
          <p>
            There is no device <span className="staff-id">{deviceid}</span>.
          </p>
        </NotFoundScreen>
      );
    }
    return (
      <div className="page staff">
        <StaffHeader title={deviceid} subtitle="The device could not be loaded." />
        <StaffLoadError message={loadErrorDetail(device.error)} onRetry={() => void device.refetch()} />
      </div>
    );
  }
  return <StaffDeviceDossier data={device.data} />;
}
