import { useNavigate, useParams, useSearchParams } from 'react-router';
import { isReservedPathSegment } from '@portal/core';
import { AddDevicePage, type AddedDevice } from '@/features/add-device/components/add-device-page';
import { useGroups } from '@/features/groups/api/get-groups';
import { recordRecentDevice } from '@/features/recent-devices/hooks/use-device-lists';
import { NotFound } from '../not-found';

/** When the groups cannot be loaded (a toast says so), the group of the path is kept as it is. */
function fallbackGroups(groupid: string | undefined) {
  return groupid ? [{ groupid, groupName: groupid }] : [];
}

/**
 * /add and /{groupid}/add (RTE-10): Add Device, optionally into that group; ?device={id} (the
 * label's QR code) prefills the device id. Once added, the device is recorded as recent and its
 * page opens (/data/{id}, or /{groupid}/data/{id} when added into a group).
 */
export function AddDeviceRoute() {
  const { groupid } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const groups = useGroups();
  if (groupid !== undefined && isReservedPathSegment(groupid)) return <NotFound />;

  const onAdded = (device: AddedDevice) => {
    recordRecentDevice(device.deviceid, device.name);
    const id = encodeURIComponent(device.deviceid);
    navigate(device.groupid ? `/${encodeURIComponent(device.groupid)}/data/${id}` : `/data/${id}`);
  };

  return (
    <AddDevicePage
      initialDeviceId={params.get('device') ?? undefined}
      groupid={groupid}
      groups={groups.isError ? fallbackGroups(groupid) : groups.data}
      onAdded={onAdded}
    />
  );
}
