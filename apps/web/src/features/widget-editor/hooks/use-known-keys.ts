/**
 * The record keys the editor offers for a group (docs/decisions.md 'Widget editor'): the group data
 * call answers only the keys it is asked for, so the keys come from the newest record of each of
 * the group's first devices (GET /device/{id}/data?dataPoints=1, at most KEY_SAMPLE_DEVICES of
 * them), joined with the keys the widget already uses. A key no sampled device has can still be
 * typed.
 */
import { useQueries } from '@tanstack/react-query';
import { STALE_TIMES_MS, type DataResponse } from '@portal/core';
import * as queryKeys from '@/lib/query-keys';

/** How many of the group's devices are asked for their keys. */
export const KEY_SAMPLE_DEVICES = 5;

/** Keys that are not values (the record's time, positions the map shows). */
const NOT_VALUES: ReadonlySet<string> = new Set(['ts', 'events', 'aws_ts', 'source']);

export function useKnownKeys(
  deviceids: readonly string[],
  used: readonly string[],
  loadRecord: (deviceid: string, signal: AbortSignal) => Promise<DataResponse>,
): string[] {
  const sample = [...deviceids].sort().slice(0, KEY_SAMPLE_DEVICES);
  const answers = useQueries({
    queries: sample.map((deviceid) => ({
      queryKey: queryKeys.device.data(deviceid, 1),
      queryFn: ({ signal }: { signal: AbortSignal }) => loadRecord(deviceid, signal),
      staleTime: STALE_TIMES_MS.data,
    })),
  });
  const keys = new Set(used.filter((k) => k !== ''));
  for (const answer of answers) {
    for (const key of Object.keys(answer.data?.data ?? {})) if (!NOT_VALUES.has(key)) keys.add(key);
  }
  return [...keys].sort();
}
