/** The clock of a test portal: real time plus an offset the test moves forward. */
import type { Clock } from '../../src/clock';

/** Real time plus an offset the test moves forward. */
export class TestClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  reset(): void {
    this.offsetMs = 0;
  }
}
