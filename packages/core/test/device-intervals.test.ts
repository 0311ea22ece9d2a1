/**
 * A device's interval from the config it applied and reported (issue 32 item 2; TL-15 with
 * DESIGN.md section 5's offline rule): one function, used by the server's offline status and
 * alert and by the web's polling and 'No Recent Contact'.
 */
import { describe, expect, it } from 'vitest';
import {
  appliedIntervalSeconds,
  appliedIntervals,
  contactStatus,
  defaultDeviceConfig,
  nextPollDelayMs,
  reportedIntervals,
} from '../src/index';

const NOW_MS = Date.UTC(2026, 5, 1, 12);
const NOW_S = NOW_MS / 1000;
const applied = (device: Record<string, unknown>) => ({ settings: { device } });

describe('appliedIntervalSeconds', () => {
  it('is base_interval x transmit_interval of the applied config', () => {
    expect(appliedIntervalSeconds(applied({ base_interval: 15, transmit_interval: 1 }))).toBe(15);
    expect(appliedIntervalSeconds(applied({ base_interval: 30, transmit_interval: 4 }))).toBe(120);
    expect(appliedIntervals(applied({ base_interval: 15 }))).toEqual({ baseInterval: 15, transmitInterval: null });
  });

  it("falls back to the default config's 60 x 1 where the config says nothing usable", () => {
    const provisioned = defaultDeviceConfig({ id: 'ABC123DEF', model: 'ORB-C1', name: 'Pump', fw: 'SFW100-2.4.1' });
    expect(appliedIntervalSeconds(provisioned)).toBe(60);
    for (const config of [undefined, null, {}, { settings: 'x' }, applied({ base_interval: 'fast' }), [1]])
      expect(appliedIntervalSeconds(config)).toBe(60);
  });

  it("TL-15: a device that applied 15 s shows 'No Recent Contact' 16 s after its record, not after the default 60 s", () => {
    const intervalS = appliedIntervalSeconds(applied({ base_interval: 15, transmit_interval: 1 }));
    expect(contactStatus({ lastRecordS: NOW_S - 15, intervalS }, NOW_MS)).toBe('online');
    expect(contactStatus({ lastRecordS: NOW_S - 16, intervalS }, NOW_MS)).toBe('noRecentContact');
    // Offline after max(interval + 60, 360) s: 360 s for 15 s; 660 s for a device on 600 s.
    expect(contactStatus({ lastRecordS: NOW_S - 361, intervalS }, NOW_MS)).toBe('offline');
    const slow = appliedIntervalSeconds(applied({ base_interval: 300, transmit_interval: 2 }));
    expect(contactStatus({ lastRecordS: NOW_S - 601, intervalS: slow }, NOW_MS)).toBe('noRecentContact');
    expect(contactStatus({ lastRecordS: NOW_S - 659, intervalS: slow }, NOW_MS)).toBe('noRecentContact');
    expect(contactStatus({ lastRecordS: NOW_S - 661, intervalS: slow }, NOW_MS)).toBe('offline');
  });

  it('the poll after fresh data waits for the next record at that same interval', () => {
    const intervalS = appliedIntervalSeconds(applied({ base_interval: 15, transmit_interval: 1 }));
    const delay = nextPollDelayMs({
      previousDelayMs: 5000,
      newData: true,
      intervalS,
      lastRecordS: NOW_S - 5,
      nowMs: NOW_MS,
    });
    // The record came 5 s ago, the next is due 10 s from now (the default 60 s would wait 55 s).
    expect(delay).toBe(10_000);
  });
});

describe('reportedIntervals: what a device reports running in its diagnostics', () => {
  it('takes whole numbers in the config contract ranges', () => {
    expect(reportedIntervals({ fw: 'SFW100-2.4.1', base_interval: 15, transmit_interval: 1 })).toEqual({
      base_interval: 15,
      transmit_interval: 1,
    });
    expect(reportedIntervals({ base_interval: 86_400 })).toEqual({ base_interval: 86_400 });
    expect(reportedIntervals({ transmit_interval: 1000 })).toEqual({ transmit_interval: 1000 });
  });

  it('ignores anything else', () => {
    for (const diag of [
      null,
      'x',
      [],
      {},
      { base_interval: 0 },
      { base_interval: 86_401 },
      { base_interval: 1.5 },
      { base_interval: '15' },
      { transmit_interval: 1001 },
      { transmit_interval: -1 },
      { base_interval: Number.NaN },
    ])
      expect(reportedIntervals(diag)).toBeNull();
    expect(reportedIntervals({ base_interval: 15, transmit_interval: 0 })).toEqual({ base_interval: 15 });
  });
});
