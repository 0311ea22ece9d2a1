import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProvDevice, ProvDeviceExists, ProvEditDeviceBody } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

const id = (deviceid: string) => encodeURIComponent(deviceid);

/** GET /api/prov-portal-get-device/{id} (API-52): the provisioning record. */
export function getProvDevice(deviceid: string): Promise<ProvDevice> {
  return api.get<ProvDevice>(`/prov-portal-get-device/${id(deviceid)}`, { area: 'provisioning' });
}

/**
 * GET /api/prov-portal-device-exists/{id}: whether a device with the id exists, answered 200
 * either way (a free id is not a 404 in the console, nor a reported error).
 */
export async function provDeviceExists(deviceid: string): Promise<boolean> {
  const answer = await api.get<ProvDeviceExists>(`/prov-portal-device-exists/${id(deviceid)}`, {
    area: 'provisioning',
  });
  return answer.exists;
}

export function provDeviceQueryOptions(deviceid: string) {
  return queryOptions({ queryKey: queryKeys.prov.device(deviceid), queryFn: () => getProvDevice(deviceid) });
}

export function useProvDevice(deviceid: string) {
  // The page shows a failure (404 and others) itself.
  return useQuery({ ...provDeviceQueryOptions(deviceid), meta: { silent: true } });
}

/**
 * POST /api/prov-portal-edit-device/{id} (API-56): creates the device (the answer carries its
 * setup password and device key, this once) or edits its model, firmware and name.
 */
export function editProvDevice(deviceid: string, body: ProvEditDeviceBody): Promise<ProvDevice> {
  return api.post<ProvDevice>(`/prov-portal-edit-device/${id(deviceid)}`, body, { area: 'provisioning' });
}

/** Creates or edits a device; the record and its log (which the call writes to) are read again. */
export function useEditProvDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ deviceid, body }: { deviceid: string; body: ProvEditDeviceBody }) => editProvDevice(deviceid, body),
    onSuccess: (device) => {
      const { setupPassword: _s, deviceKey: _k, ...record } = device;
      queryClient.setQueryData(queryKeys.prov.device(device.deviceid), record);
      return queryClient.invalidateQueries({ queryKey: queryKeys.prov.log(device.deviceid) });
    },
  });
}
