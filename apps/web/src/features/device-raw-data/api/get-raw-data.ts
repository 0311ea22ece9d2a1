import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { RAW_DATA_PAGE, rawDataPage, type DataResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** A time range of the page, epoch seconds; null is open (from the first record, up to now). */
export interface RawRange {
  from: number | null;
  to: number | null;
}

/**
 * GET /api/device/{id}/data: a page of records and events of the range, newest first, up to
 * `before` (inclusive) when given, else up to the range's end.
 */
export function getRawData(
  deviceid: string,
  range: RawRange,
  before: number | null,
  signal?: AbortSignal,
): Promise<DataResponse> {
  const query = new URLSearchParams({ dataPoints: String(RAW_DATA_PAGE) });
  if (range.from !== null) query.set('fromTime', String(range.from));
  const to = before ?? range.to;
  if (to !== null) query.set('toTime', String(to));
  return api.get<DataResponse>(`/device/${encodeURIComponent(deviceid)}/data?${query}`, { area: 'device', signal });
}

/**
 * A page of the Raw Data table (core rawDataPage): fresh for 30 s (spec 2 section 7); the page
 * shown stays while the next one loads; a failure is shown by the page itself.
 */
export function useRawData(deviceid: string, range: RawRange, before: number | null) {
  return useQuery({
    queryKey: queryKeys.device.rawPage(deviceid, range.from, range.to, before),
    queryFn: ({ signal }) => getRawData(deviceid, range, before, signal),
    select: (response) => rawDataPage(response, RAW_DATA_PAGE, before),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}
