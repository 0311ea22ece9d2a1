import { describe, expect, it } from 'vitest';
import { notAfterNow } from '../src/index';

describe('notAfterNow: a relative time is never in the future', () => {
  const now = 1_800_000_000_000;
  it.each([
    [now - 60_000, now - 60_000], // the past stays as it is
    [now, now],
    [now + 1, now], // a record newer than the page clock reads as now
    [now + 2_000, now],
    [now + 300_000, now], // a device clock 5 minutes fast
  ])('notAfterNow(%d) -> %d', (time, expected) => expect(notAfterNow(time, now)).toBe(expected));

  it('leaves what is not a time alone', () => {
    expect(notAfterNow(Number.NaN, now)).toBeNaN();
    expect(notAfterNow(now + 5, Number.NaN)).toBe(now + 5);
  });
});
