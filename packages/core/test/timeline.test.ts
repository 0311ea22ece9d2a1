import { describe, expect, it } from 'vitest';
import { HISTORICAL_DATA, LATEST_DATA, TIMELINE_STEPS, stepTimeline, timelineState } from '../src/index';

const { back1, back10, forward1, forward10 } = TIMELINE_STEPS;

describe('stepTimeline (TL-02, TL-04, TL-07)', () => {
  it.each([
    ['Back 1 from the latest gives the older record (TL-02)', 0, back1, 5, 1],
    ['Back 10 from 0 with 5 points lands on 4 (TL-07)', 0, back10, 5, 4],
    ['Back 10 in the middle', 3, back10, 600, 13],
    ['Back 1 at the oldest stays', 4, back1, 5, 4],
    ['Forward 1', 3, forward1, 5, 2],
    ['Forward 10 clamps at the latest (TL-07)', 3, forward10, 5, 0],
    ['Forward 1 at the latest stays', 0, forward1, 5, 0],
    ['jump to the latest (TL-04)', 7, -Infinity, 600, 0],
    ['one record', 0, back10, 1, 0],
    ['no records', 0, back1, 0, 0],
    ['an index beyond the data is clamped first', 50, forward1, 5, 3],
    ['a negative index is clamped first', -3, back1, 5, 1],
    ['NaN index', Number.NaN, back1, 5, 1],
    ['NaN step', 2, Number.NaN, 5, 2],
    ['NaN length', 2, back1, Number.NaN, 0],
    ['negative length', 2, back1, -5, 0],
    ['fractional step', 0, 1.9, 5, 1],
    ['fractional length', 0, back10, 5.7, 4],
  ])('%s', (_label, index, step, length, expected) => {
    expect(stepTimeline(index, step, length)).toBe(expected);
  });
});

describe('timelineState (TL-03, TL-05, TL-06, TL-09)', () => {
  it.each([
    ['latest: forward disabled (TL-06)', 0, 5, false, LATEST_DATA, false, true],
    ['history: heading changes (TL-03)', 1, 5, false, HISTORICAL_DATA, false, false],
    ['oldest: back disabled (TL-05)', 4, 5, false, HISTORICAL_DATA, true, false],
    ['one record: both disabled', 0, 1, false, LATEST_DATA, true, true],
    ['no records: both disabled', 0, 0, false, LATEST_DATA, true, true],
    ['restricted: all disabled (TL-09)', 0, 5, true, LATEST_DATA, true, true],
    ['restricted in history: all disabled', 2, 5, true, HISTORICAL_DATA, true, true],
    ['index beyond the data reads as the oldest', 99, 5, false, HISTORICAL_DATA, true, false],
    ['NaN index reads as the latest', Number.NaN, 5, false, LATEST_DATA, false, true],
  ])('%s', (_label, index, length, restricted, heading, backDisabled, forwardDisabled) => {
    expect(timelineState(index, length, restricted)).toEqual({ heading, backDisabled, forwardDisabled });
  });

  it('uses the spec wording', () => {
    expect(LATEST_DATA).toBe('Latest Data');
    expect(HISTORICAL_DATA).toBe('Historical Data');
  });
});
