import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS } from '@portal/core';
import { api } from '@/lib/api';
import { deviceQueryKeys } from '@/lib/device-query-keys';

export interface DeviceDataEvent {
  ts: number;
  topic: string | null;
  msg: string;
  lv: number | null;
  severity: string | null;
}

/** GET /api/device/{id}/data: each key's points newest first, and the events. */
export interface DeviceDataResponse {
  deviceid: string;
  data: Record<string, { v: unknown; ts: number }[]>;
  events: DeviceDataEvent[];
}

export const deviceDataKey = deviceQueryKeys.data;

export function getDeviceData(deviceid: string, dataPoints: number, signal?: AbortSignal): Promise<DeviceDataResponse> {
  const query = new URLSearchParams({ dataPoints: String(dataPoints) });
  return api.get<DeviceDataResponse>(`/device/${encodeURIComponent(deviceid)}/data?${query}`, {
    area: 'device',
    signal,
  });
}

/**
 * The device's recent records, fresh for 30 s (spec 2 section 7) and polled on the schedule
 * `refetchInterval` gives (the polling rule of section 4).
 */
export function useDeviceData(
  deviceid: string,
  dataPoints: number,
  options: {
    refetchInterval: (data: DeviceDataResponse | undefined, answeredAt: number) => number | false;
  },
) {
  return useQuery({
    queryKey: deviceDataKey(deviceid, dataPoints),
    queryFn: ({ signal }) => getDeviceData(deviceid, dataPoints, signal),
    staleTime: STALE_TIMES_MS.data,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => options.refetchInterval(query.state.data, query.state.dataUpdatedAt),
    refetchIntervalInBackground: false,
  });
}
