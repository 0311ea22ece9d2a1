import { useQueries } from '@tanstack/react-query';
import { STALE_TIMES_MS, chartDataQuery, type DataResponse, type EpochRange } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** One series' call: a device (source) and its key. */
export interface ChartSeriesSource {
  source: string;
  key: string;
}

/**
 * GET /api/device/{id}/data for one series over the range: its key only, 600 points (CHT-18),
 * downsampled for ranges over 6 hours, without events (core chartDataQuery).
 */
export function getChartSeriesData(
  series: ChartSeriesSource,
  range: EpochRange,
  signal?: AbortSignal,
): Promise<DataResponse> {
  const q = chartDataQuery(range, series.key);
  const query = new URLSearchParams({
    fromTime: String(q.fromTime),
    toTime: String(q.toTime),
    dataKeys: q.dataKeys,
    dataPoints: String(q.dataPoints),
    events: q.events,
  });
  if (q.downsample) query.set('downsample', q.downsample);
  return api.get<DataResponse>(`/device/${encodeURIComponent(series.source)}/data?${query.toString()}`, {
    area: 'device',
    signal,
  });
}

/**
 * Every series' data, asked together (one call per series, side by side), each fresh for 30 s
 * (spec 2 section 7, data). Two series of one device and key share a call.
 */
export function useChartData(series: readonly ChartSeriesSource[], range: EpochRange) {
  return useQueries({
    queries: series.map((s) => ({
      queryKey: queryKeys.device.chart(s.source, s.key, range.from, range.to),
      queryFn: ({ signal }: { signal: AbortSignal }) => getChartSeriesData(s, range, signal),
      staleTime: STALE_TIMES_MS.data,
    })),
  });
}
