import { useMutation, useQueryClient } from '@tanstack/react-query';
import { labelFileName, labelsFileName, type LabelFormat } from '@portal/core';
import { apiBlob } from '@/lib/api';
import { refreshProvLog } from './prov-log';

export interface LabelFile {
  blob: Blob;
  fileName: string;
}

/** GET /api/prov-portal-get-device-label/{id}?format=pdf|png (API-54): the label as a blob. */
export async function getDeviceLabel(deviceid: string, format: LabelFormat): Promise<LabelFile> {
  const blob = await apiBlob('GET', `/prov-portal-get-device-label/${encodeURIComponent(deviceid)}?format=${format}`, {
    area: 'provisioning',
  });
  return { blob, fileName: labelFileName(deviceid, format) };
}

/** POST /api/prov-portal-labels {deviceList}: the labels of a batch as one PDF, a page per device. */
export async function getDeviceLabels(deviceList: readonly string[]): Promise<LabelFile> {
  const blob = await apiBlob('POST', '/prov-portal-labels', { area: 'provisioning', body: { deviceList } });
  return { blob, fileName: labelsFileName(deviceList) };
}

/** Fetches a device's label; the download is written to its log, which is read again. */
export function useDeviceLabel(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (format: LabelFormat) => getDeviceLabel(deviceid, format),
    onSuccess: () => refreshProvLog(queryClient, deviceid),
  });
}

/** Fetches a batch's labels; each device's log is read again. */
export function useDeviceLabels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deviceList: readonly string[]) => getDeviceLabels(deviceList),
    onSuccess: (_file, deviceList) => Promise.all(deviceList.map((id) => refreshProvLog(queryClient, id))),
  });
}
