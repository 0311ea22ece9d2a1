import { describe, expect, it } from 'vitest';
import { nextPollState, type PollState } from '../src';

/** Feeds answers (newest record ts of each) and returns the gaps chosen, in seconds. */
function gaps(answers: (number | null)[], intervalS: number | null = null, nowS = (i: number) => 1000 + i): number[] {
  let state: PollState | null = null;
  return answers.map((ts, i) => {
    state = nextPollState(state, ts, intervalS, nowS(i) * 1000);
    return state.delayMs / 1000;
  });
}

describe('polling schedule', () => {
  it('starts at 5 s (TL-10) and doubles up to 120 s while nothing new arrives (TL-11)', () => {
    expect(gaps([100, 100, 100, 100, 100, 100, 100, 100])).toEqual([5, 10, 20, 40, 80, 120, 120, 120]);
  });

  it('goes back to 5 s on new data (TL-12)', () => {
    expect(gaps([100, 100, 100, 100, 100, 200, 200])).toEqual([5, 10, 20, 40, 80, 5, 10]);
  });

  it('with fresh data waits for the next expected transmission: base 30 x transmit 2 (TL-13)', () => {
    // The record at 1000 s arrives at 1001 s: the next one is due at 1060 s, 59 s later.
    expect(gaps([900, 1000], 60, (i) => 1000 + i)).toEqual([5, 59]);
  });

  it('a device with no records backs off like one with nothing new', () => {
    expect(gaps([null, null, null])).toEqual([5, 10, 20]);
  });
});
