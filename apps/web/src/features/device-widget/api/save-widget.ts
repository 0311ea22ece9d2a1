import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceSettingsPutBody, DeviceSettingsResponse, WidgetCard } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/**
 * PUT /api/device/{id}/settings with PORTAL_displaySettings.{widget{n}}: the card, or null to remove
 * it (WGT-22). The server checks the card, the plan and the 99-widget limit; the settings are
 * read again after.
 */
export function saveWidget(deviceid: string, key: string, card: WidgetCard | null): Promise<DeviceSettingsResponse> {
  const body = { PORTAL_displaySettings: { [key]: card } } as DeviceSettingsPutBody;
  return api.put<DeviceSettingsResponse>(`/device/${encodeURIComponent(deviceid)}/settings`, body, { area: 'device' });
}

export function useSaveWidget(deviceid: string, key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (card: WidgetCard | null) => saveWidget(deviceid, key, card),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.device.settings(deviceid), answer),
  });
}
