import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, type DataResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';
import { isDeviceNotFound } from './device-not-found';

/** GET /api/device/{id}/data: each key's points newest first, and the events (core's DataResponseSchema). */
export function getDeviceData(deviceid: string, dataPoints: number, signal?: AbortSignal): Promise<DataResponse> {
  const query = new URLSearchParams({ dataPoints: String(dataPoints) });
  return api.get<DataResponse>(`/device/${encodeURIComponent(deviceid)}/data?${query}`, {
    area: 'device',
    signal,
  });
}

/**
 * The device's recent records, fresh for 30 s (spec 2 section 7) and polled on the schedule
 * `refetchInterval` gives (the polling rule of section 4); a device that is not found is not
 * polled again.
 */
export function useDeviceData(
  deviceid: string,
  dataPoints: number,
  options: {
    refetchInterval: (data: DataResponse | undefined, answeredAt: number) => number | false;
    enabled?: boolean;
  },
) {
  return useQuery({
    queryKey: queryKeys.device.data(deviceid, dataPoints),
    queryFn: ({ signal }) => getDeviceData(deviceid, dataPoints, signal),
    staleTime: STALE_TIMES_MS.data,
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      isDeviceNotFound(query.state.error)
        ? false
        : options.refetchInterval(query.state.data, query.state.dataUpdatedAt),
    enabled: options.enabled ?? true,
    refetchIntervalInBackground: false,
    meta: { notFoundShown: true },
  });
}
