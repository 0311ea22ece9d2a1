import { useCallback, useRef } from 'react';
import { nextPollState, POLLING, type DataResponse, type PollState } from '@portal/core';

/** Epoch seconds of the newest point of any key, or null. */
export function newestTs(data: DataResponse | undefined): number | null {
  let newest: number | null = null;
  for (const points of Object.values(data?.data ?? {})) {
    const ts = points[0]?.ts;
    if (typeof ts === 'number' && (newest === null || ts > newest)) newest = ts;
  }
  return newest;
}

/**
 * The device page's polling schedule (spec 2 section 4, core nextPollState) as react-query's
 * refetchInterval. Each answer moves the schedule once, however often react-query asks.
 */
export function usePollingSchedule(intervalS: number | null, now: () => number = Date.now) {
  const state = useRef<{ answeredAt: number; poll: PollState | null }>({ answeredAt: 0, poll: null });
  return useCallback(
    /** `answeredAt` tells answers apart: an unchanged answer keeps its old data object. */
    (data: DataResponse | undefined, answeredAt: number): number => {
      const s = state.current;
      if (data === undefined) return POLLING.initialMs;
      if (answeredAt !== s.answeredAt) {
        s.poll = nextPollState(s.poll, newestTs(data), intervalS, now());
        s.answeredAt = answeredAt;
      }
      return s.poll?.delayMs ?? POLLING.initialMs;
    },
    [intervalS, now],
  );
}
