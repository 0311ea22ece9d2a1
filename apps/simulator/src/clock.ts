/**
 * The time source of the simulator. Devices read the time and set their timers only through a
 * Clock, so tests drive them with a FakeClock (no waiting, no timing dependence) and demos may
 * run them faster with `scaledTimers`.
 */
export type TimerHandle = unknown;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The same time, timers `speed` times shorter: a device with a 60 s interval at speed 60 makes
 * contact every second. Record timestamps stay on the base clock, so a server never sees a
 * record from the future.
 */
export function scaledTimers(base: Clock, speed: number): Clock {
  if (!(speed > 0) || speed === 1) return base;
  return {
    now: () => base.now(),
    setTimeout: (fn, ms) => base.setTimeout(fn, ms / speed),
    clearTimeout: (handle) => base.clearTimeout(handle),
  };
}

interface FakeTimer {
  id: number;
  at: number;
  fn: () => void;
}

/** A clock that moves only when told to; `advance` runs due timers in time order. */
export class FakeClock implements Clock {
  private current: number;
  private timers: FakeTimer[] = [];
  private seq = 0;

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer: FakeTimer = { id: (this.seq += 1), at: this.current + Math.max(0, ms), fn };
    this.timers.push(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t !== handle);
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /**
   * Moves the time forward by `ms`, firing every timer that falls due on the way (in order),
   * and lets the promises they start settle between timers.
   */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    await flush();
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
      await flush();
    }
    this.current = end;
    await flush();
  }
}

/** Lets pending promise callbacks (and the ones they start) run. */
export async function flush(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}
