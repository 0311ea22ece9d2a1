/**
 * What `npm start` does when its server exits (scripts/restart-policy.mjs): restarted with a
 * growing delay when it dies, stopped when asked, refused on its configuration, or never served.
 */
import { describe, expect, it } from 'vitest';
import {
  BACKOFF,
  EX_CONFIG,
  afterExit,
  describeExit,
  type ChildExit,
  type SupervisorState,
} from '../../../../scripts/restart-policy.mjs';

const served: SupervisorState = { stopping: false, everReady: true, failures: 0 };
const died = (exit: Partial<ChildExit>): ChildExit => ({ code: null, signal: null, uptimeMs: 5_000, ...exit });

describe('restart policy', () => {
  it.each([
    ['killed (the kernel out of memory)', { signal: 'SIGKILL' }],
    ["aborted (V8's heap limit)", { signal: 'SIGABRT' }],
    ['crashed (an uncaught error)', { code: 1 }],
    ['a segfault', { signal: 'SIGSEGV' }],
    ['any other status', { code: 2 }],
  ] as const)('a server that served and is %s is started again after the first delay', (_, exit) => {
    expect(afterExit(died(exit), served)).toEqual({ action: 'restart', delayMs: 1_000, failures: 1 });
  });

  it('quick failures in a row double the delay up to its cap; a run that lasted resets it', () => {
    let state = served;
    const delays: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const next = afterExit(died({ code: 1, uptimeMs: 2_000 }), state);
      if (next.action !== 'restart') throw new Error('stopped');
      delays.push(next.delayMs);
      state = { ...state, failures: next.failures };
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(afterExit(died({ signal: 'SIGKILL', uptimeMs: BACKOFF.stableMs }), state)).toEqual({
      action: 'restart',
      delayMs: 1_000,
      failures: 1,
    });
    expect(afterExit(died({ signal: 'SIGKILL', uptimeMs: BACKOFF.stableMs - 1 }), state)).toMatchObject({
      delayMs: 30_000,
    });
  });

  it('takes its delays from the given backoff', () => {
    const backoff = { firstMs: 100, maxMs: 300, stableMs: 1_000 };
    expect(afterExit(died({ code: 1, uptimeMs: 10 }), { ...served, failures: 1 }, backoff)).toMatchObject({
      delayMs: 200,
    });
    expect(afterExit(died({ code: 1, uptimeMs: 10 }), { ...served, failures: 5 }, backoff)).toMatchObject({
      delayMs: 300,
    });
    expect(afterExit(died({ code: 1, uptimeMs: 1_000 }), { ...served, failures: 5 }, backoff)).toMatchObject({
      delayMs: 100,
    });
  });

  it.each([
    ['the supervisor was asked to stop and the server drained', { code: 0 }, { stopping: true }, 0],
    ['the supervisor was asked to stop and the server failed its drain', { code: 1 }, { stopping: true }, 1],
    ['the supervisor was asked to stop and the server died of it', { signal: 'SIGTERM' }, { stopping: true }, 1],
    ['the supervisor was asked to stop while the server was dying', { signal: 'SIGKILL' }, { stopping: true }, 1],
    ['the server was stopped on its own (exit 0)', { code: 0 }, {}, 0],
    ['the server was sent SIGTERM on its own', { signal: 'SIGTERM' }, {}, 1],
    ['the server was sent SIGINT on its own', { signal: 'SIGINT' }, {}, 1],
    ['the server refused its configuration on a restart', { code: EX_CONFIG }, {}, EX_CONFIG],
    ['the server refused its configuration on its first start', { code: EX_CONFIG }, { everReady: false }, EX_CONFIG],
    ['the first start failed', { code: 1 }, { everReady: false }, 1],
    ['the first start was killed', { signal: 'SIGKILL' }, { everReady: false }, 1],
  ] as const)('stops when %s', (_, exit, state, code) => {
    expect(afterExit(died(exit), { ...served, ...state })).toEqual({ action: 'stop', code });
  });

  it('a restart that fails before serving is started again (the server had served before)', () => {
    expect(afterExit(died({ code: 1, uptimeMs: 300 }), { ...served, failures: 2 })).toEqual({
      action: 'restart',
      delayMs: 4_000,
      failures: 3,
    });
  });

  it('says how the server ended', () => {
    expect(describeExit({ code: null, signal: 'SIGKILL' })).toBe('was killed by SIGKILL');
    expect(describeExit({ code: 1, signal: null })).toBe('exited with code 1');
  });
});
