/** Rules for showing times. */

/**
 * The moment a relative time ('3 min ago') is measured from: never after now. A time ahead of
 * `nowMs` (a device clock running fast, or a record newer than the page's clock) reads as now, so
 * a relative time never reads 'in 2 seconds'. Not a finite number: returned as it is.
 */
export function notAfterNow(timeMs: number, nowMs: number): number {
  return Number.isFinite(nowMs) && timeMs > nowMs ? nowMs : timeMs;
}
