/**
 * The device page's polling schedule as a sequence of answers (spec 2 section 4): the first
 * answer schedules the next poll 5 s later; then nextPollDelayMs: doubling up to 120 s while the
 * newest record stays the same, back to 5 s (or the device's next expected transmission) when a
 * newer one arrives.
 */
import { nextPollDelayMs, POLLING } from './constants';

export interface PollState {
  /** Epoch seconds of the newest record seen, or null. */
  lastTs: number | null;
  /** The delay chosen after the last answer, ms. */
  delayMs: number;
}

/** The state after an answer whose newest record is `lastTs` (null: none), at `nowMs`. */
export function nextPollState(
  previous: PollState | null,
  lastTs: number | null,
  intervalS: number | null,
  nowMs: number,
): PollState {
  if (previous === null) return { lastTs, delayMs: POLLING.initialMs };
  const newData = lastTs !== null && lastTs !== previous.lastTs;
  return {
    lastTs,
    delayMs: nextPollDelayMs({ previousDelayMs: previous.delayMs, newData, intervalS, lastRecordS: lastTs, nowMs }),
  };
}
