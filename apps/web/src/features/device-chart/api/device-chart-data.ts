/**
 * The data calls of a device's custom charts and its utilisation chart (spec 2 sections 7 and 9):
 * GET /api/device/{id}/data over a relative range that ends when the call is made, so a refetch
 * moves the range on. The query key names the range ('10m'), not its times; while another range
 * or key loads, the chart keeps what it shows (no skeleton between two charts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  STALE_TIMES_MS,
  UTILISATION_REFETCH_MS,
  barChartDataQuery,
  deviceChartDataQuery,
  relativeChartRange,
  utilisationDataQuery,
  type ChartRange,
  type DataResponse,
  type EpochRange,
} from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** An answer with the range it was asked for. */
export interface RangedData {
  range: EpochRange;
  response: DataResponse;
}

type Query = Record<string, string | number | undefined>;

/** GET /api/device/{id}/data with a query (fields left undefined are not sent). */
export function getDeviceData(deviceid: string, query: Query, signal?: AbortSignal): Promise<DataResponse> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  return api.get<DataResponse>(`/device/${encodeURIComponent(deviceid)}/data?${params.toString()}`, {
    area: 'device',
    signal,
  });
}

/**
 * A custom chart's data over the range: its line keys in one call (600 points, downsampled beyond
 * 6 hours) or, for a bar chart, the newest record holding its array keys; fresh for 30 s and asked
 * again every 30 s while shown (spec 2 section 7: data), so the range keeps ending now.
 */
export function useDeviceChartData(deviceid: string, keys: readonly string[], bars: boolean, range: ChartRange) {
  return useQuery({
    queryKey: queryKeys.device.customChart(deviceid, keys, bars, range),
    queryFn: async ({ signal }): Promise<RangedData> => {
      const epoch = relativeChartRange(range, Date.now());
      const query = bars ? barChartDataQuery(epoch, keys) : deviceChartDataQuery(epoch, keys);
      return { range: epoch, response: await getDeviceData(deviceid, { ...query }, signal) };
    },
    enabled: keys.length > 0,
    placeholderData: keepPreviousData,
    staleTime: STALE_TIMES_MS.data,
    refetchInterval: STALE_TIMES_MS.data,
    refetchIntervalInBackground: false,
  });
}

/**
 * The utilisation chart's data: the working states' hour meters over the range with downsample=2,
 * asked again every 10 minutes (CHT-22).
 */
export function useUtilisationData(deviceid: string, range: ChartRange) {
  return useQuery({
    queryKey: queryKeys.device.utilisation(deviceid, range),
    queryFn: async ({ signal }): Promise<RangedData> => {
      const epoch = relativeChartRange(range, Date.now());
      return { range: epoch, response: await getDeviceData(deviceid, { ...utilisationDataQuery(epoch) }, signal) };
    },
    placeholderData: keepPreviousData,
    staleTime: UTILISATION_REFETCH_MS,
    refetchInterval: UTILISATION_REFETCH_MS,
    refetchIntervalInBackground: false,
  });
}
