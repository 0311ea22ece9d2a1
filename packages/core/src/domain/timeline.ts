/** The timeline bar of the device page (spec 2 sections 2 and 4, TL-02 to TL-09). */
import { HISTORICAL_DATA, LATEST_DATA } from './screen-messages';

/** Steps of the four buttons: positive steps go back in time (index 0 is the latest record, higher is older). */
export const TIMELINE_STEPS = { back10: 10, back1: 1, forward1: -1, forward10: -10 } as const;

/** The heading, and which buttons are disabled. */
export interface TimelineState {
  heading: typeof LATEST_DATA | typeof HISTORICAL_DATA;
  backDisabled: boolean;
  forwardDisabled: boolean;
}

/** A whole index within 0..length-1 (0 when there are no records). */
function clampIndex(index: number, length: number): number {
  const last = Number.isFinite(length) && length > 1 ? Math.floor(length) - 1 : 0;
  const i = Number.isFinite(index) ? Math.trunc(index) : index === Number.POSITIVE_INFINITY ? last : 0;
  return Math.min(last, Math.max(0, i));
}

/**
 * The index after a step (index 0 latest, higher older; a positive step goes back): clamped
 * to the data, so Back 10 from 0 with 5 records lands on 4 (TL-07).
 */
export function stepTimeline(index: number, step: number, length: number): number {
  const from = clampIndex(index, length);
  // An infinite step goes to the end (Infinity: the oldest record, -Infinity: the latest).
  const by = Number.isNaN(step) ? 0 : Number.isFinite(step) ? Math.trunc(step) : step;
  return clampIndex(from + by, length);
}

/**
 * The bar at an index: 'Latest Data' at index 0, else 'Historical Data' (TL-03); back buttons
 * disabled at the oldest record, forward buttons at the latest (TL-05, TL-06); all disabled when
 * data is restricted (TL-09).
 */
export function timelineState(index: number, length: number, restricted: boolean): TimelineState {
  const i = clampIndex(index, length);
  const last = clampIndex(Number.POSITIVE_INFINITY, length);
  return {
    heading: i === 0 ? LATEST_DATA : HISTORICAL_DATA,
    backDisabled: Boolean(restricted) || i >= last,
    forwardDisabled: Boolean(restricted) || i <= 0,
  };
}
