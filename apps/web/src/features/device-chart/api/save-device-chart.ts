/**
 * Saving and deleting a custom chart: PUT /api/device/{id}/settings with
 * PORTAL_displaySettings.chart{n} set to the chart, or to null to delete it (WGT-22). The server
 * decides the role, the plan and the limit of 5 again; the settings are read again after.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChartSettings } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export function putDeviceChart(deviceid: string, key: string, chart: ChartSettings | null): Promise<unknown> {
  return api.put<unknown>(
    `/device/${encodeURIComponent(deviceid)}/settings`,
    { PORTAL_displaySettings: { [key]: chart } },
    { area: 'device' },
  );
}

export function useSaveDeviceChart(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, chart }: { key: string; chart: ChartSettings | null }) => putDeviceChart(deviceid, key, chart),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.device.settings(deviceid) }),
  });
}
