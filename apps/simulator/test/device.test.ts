import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DeviceRecordSchema } from '@portal/core';
import { FakeClock, flush } from '../src/clock';
import { SimDevice } from '../src/device';
import { createGate, startFleet } from '../src/fleet';
import { MemoryLink } from './helpers';

function setup(options: { transmit?: number } = {}) {
  const clock = new FakeClock(Date.UTC(2026, 5, 1, 8));
  const link = new MemoryLink(() => clock.now());
  const device = new SimDevice({
    id: 'SIM000001',
    key: 'k',
    model: 'ORB-X1',
    link,
    clock,
    config: { transmit_interval: options.transmit },
  });
  const gaps = () => link.messages.slice(1).map((m, i) => (m.at - (link.messages[i]?.at ?? 0)) / 1000);
  return { clock, link, device, gaps };
}

describe('SimDevice', () => {
  it('sleeps between contacts: one record every base_interval x transmit_interval (default 60 s)', async () => {
    const { clock, link, device, gaps } = setup();
    device.start();
    await clock.advance(0);
    expect(link.records).toHaveLength(1);
    await clock.advance(59_999);
    expect(link.records).toHaveLength(1);
    await clock.advance(1);
    expect(link.records).toHaveLength(2);
    await clock.advance(180_000);
    expect(link.records).toHaveLength(5);
    expect(gaps()).toEqual([60, 60, 60, 60]);
    for (const r of link.records) expect(DeviceRecordSchema.safeParse(r).success).toBe(true);
    expect(link.diags).toHaveLength(1); // on the first contact
    await device.stop();
  });

  it('applies a delivered config: a new interval changes the cadence from then on', async () => {
    const { clock, link, device, gaps } = setup();
    device.start();
    await clock.advance(120_000); // contacts at 0, 60, 120
    expect(link.messages).toHaveLength(3);
    link.push({ commands: [], config: { device: { base_interval: 10 } } });
    await clock.advance(0);
    expect(device.baseIntervalS).toBe(10);
    expect(device.stats.configs).toBe(1);
    const before = link.messages.length;
    await clock.advance(60_000);
    const fresh = gaps().slice(before);
    expect(fresh.length).toBeGreaterThanOrEqual(5);
    expect(new Set(fresh)).toEqual(new Set([10]));
    // transmit_interval 3: three samples 10 s apart, sent together every 30 s
    link.push({ commands: [], config: { device: { transmit_interval: 3 } } });
    await clock.advance(0);
    const start = link.messages.length;
    await clock.advance(90_000);
    const batches = link.messages.slice(start);
    expect(batches).toHaveLength(3);
    for (const b of batches) {
      expect(b.records).toHaveLength(3);
      expect(b.records.map((r) => Math.round(r.ts - (b.records[0]?.ts ?? 0)))).toEqual([0, 10, 20]);
    }
    expect(gaps().slice(start - 1)).toEqual([30, 30, 30]);
    // a diagnostics message says what the device now runs
    expect(JSON.stringify(link.diags)).toContain('transmit_interval 3');
    // an out-of-range interval is ignored
    link.push({ commands: [], config: { device: { base_interval: -5 } } });
    await clock.advance(0);
    expect(device.baseIntervalS).toBe(10);
    await device.stop();
  });

  it('answers Admin.Trigger with an event at once and acknowledges every command', async () => {
    const { clock, link, device } = setup();
    device.start();
    await clock.advance(5_000);
    link.push({
      commands: [
        { id: 11, method: 'Admin.Trigger', args: { index: 2 } },
        { id: 12, method: 'Admin.Reboot' },
        { id: 13, method: 'Admin.Trigger', args: { index: 4 } },
      ],
    });
    await clock.advance(0);
    expect(link.acks).toEqual([11, 12, 13]);
    expect(device.stats.acks).toBe(3);
    const last = link.records.at(-1);
    expect(last?.events?.filter((e) => e.topic === 'trigger').map((e) => e.msg)).toEqual([
      'Trigger 2 activated',
      'Trigger 4 activated',
    ]);
    expect(last?.events?.every((e) => (e.lv ?? 0) >= 1 && (e.lv ?? 0) <= 10)).toBe(true);
    expect(link.records).toHaveLength(2); // the scheduled one and the triggered one
    await device.stop();
  });

  it("names a trigger's event after the trigger its config gives the index (issue 32: 'Sound Horn activated')", async () => {
    const { clock, link, device } = setup();
    device.start();
    await clock.advance(5_000);
    // The portal delivers the script's triggers as part of the config document.
    link.push({
      commands: [],
      config: { settings: { script: { triggers: [{ index: 1, name: 'Sound Horn', colour: '#0284c7' }] } } },
    });
    await clock.advance(0);
    link.push({
      commands: [
        { id: 21, method: 'Admin.Trigger', args: { index: 1 } },
        { id: 22, method: 'Admin.Trigger', args: { index: 2 } },
      ],
    });
    await clock.advance(0);
    const messages = link.records.flatMap((r) => r.events ?? []).filter((e) => e.topic === 'trigger');
    // An index the config names no trigger for keeps 'Trigger {index}'.
    expect(messages.map((e) => e.msg)).toEqual(['Sound Horn activated', 'Trigger 2 activated']);
    await device.stop();
  });

  it('starts with the settings it is given (kept from an earlier run) and reports the intervals it runs', async () => {
    const clock = new FakeClock(Date.UTC(2026, 5, 1, 8));
    const link = new MemoryLink(() => clock.now());
    const device = new SimDevice({
      id: 'SIM000002',
      key: 'k',
      model: 'ORB-C1',
      link,
      clock,
      config: { base_interval: 15 },
      settings: { script: { triggers: [{ index: 3, name: 'Stop Engine' }] } },
    });
    device.start();
    await clock.advance(0);
    // The first contact's diagnostics carry the intervals the device runs (the portal's applied config follows them).
    expect(link.diags[0]).toMatchObject({ base_interval: 15, transmit_interval: 1 });
    expect(device.triggerName(3)).toBe('Stop Engine');
    link.push({ commands: [], config: { device: { base_interval: 20 } } });
    await clock.advance(0);
    expect(link.diags.at(-1)).toMatchObject({ base_interval: 20, transmit_interval: 1 });
    await device.stop();
  });

  it('handles commands returned in a reply (HTTP style) the same way', async () => {
    const { clock, link, device } = setup();
    link.nextReply = {
      commands: [{ id: 5, method: 'Admin.Trigger', args: { index: 1 } }],
      config: { base_interval: 30 },
    };
    device.start();
    await clock.advance(0);
    expect(device.baseIntervalS).toBe(30);
    expect(link.acks).toEqual([5]);
    expect(link.records.at(-1)?.events?.some((e) => e.msg === 'Trigger 1 activated')).toBe(true);
    await device.stop();
  });

  it('acknowledges a config and a script version once applied, and a version delivered again without re-applying', async () => {
    const { clock, link, device } = setup();
    device.start();
    await clock.advance(0);
    const script = Buffer.from('let x = 1;').toString('base64');
    link.push({
      commands: [],
      config: { settings: { device: { base_interval: 20 } } },
      configVersion: 3,
      script,
      scriptVersion: 2,
    });
    await clock.advance(0);
    expect(device.baseIntervalS).toBe(20);
    expect(device.script).toBe(script);
    expect(link.ackMessages).toEqual([{ config: 3 }, { script: 2 }]);
    expect(device.stats.configs).toBe(1);
    // the portal sends the same versions again (the acknowledgements were lost): acknowledged, not re-applied
    link.push({ commands: [], config: { settings: { device: { base_interval: 20 } } }, configVersion: 3 });
    await clock.advance(0);
    expect(device.stats.configs).toBe(1);
    expect(link.ackMessages.slice(2)).toEqual([{ config: 3 }]);
    await device.stop();
  });

  it('runs a command delivered twice once, and acknowledges it both times', async () => {
    const { clock, link, device } = setup();
    device.start();
    await clock.advance(0);
    const trigger = { id: 21, method: 'Admin.Trigger', args: { index: 1 } };
    link.push({ commands: [trigger] });
    await clock.advance(0);
    link.push({ commands: [trigger] });
    await clock.advance(0);
    expect(link.acks).toEqual([21, 21]);
    expect(device.stats.triggers).toBe(1);
    expect(link.records.flatMap((r) => r.events ?? []).filter((e) => e.topic === 'trigger')).toHaveLength(1);
    await device.stop();
  });

  it('downloads an Admin.File, checks its size and sha256, keeps it and acknowledges; a failed fetch is not acknowledged', async () => {
    const { clock, link, device } = setup();
    device.start();
    await clock.advance(0);
    const bytes = Buffer.from('calibration table v2\n');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const args = (fileId: number, extra: Record<string, unknown> = {}) => ({
      fileName: `f${fileId}.bin`,
      size: bytes.length,
      sha256,
      fileId,
      path: `/api/ingest/SIM000001/file/${fileId}`,
      ...extra,
    });
    link.served.set('/api/ingest/SIM000001/file/1', bytes);
    link.served.set('/api/ingest/SIM000001/file/2', Buffer.from('something else'));
    link.push({
      commands: [
        { id: 31, method: 'Admin.File', args: args(1) },
        { id: 32, method: 'Admin.File', args: args(2) },
        { id: 33, method: 'Admin.File', args: args(3) },
      ],
    });
    await clock.advance(0);
    expect(link.downloads).toEqual([1, 2, 3].map((n) => `/api/ingest/SIM000001/file/${n}`));
    expect(device.files.get('f1.bin')?.equals(bytes)).toBe(true);
    expect(device.files.has('f2.bin')).toBe(false);
    expect([...link.acks].sort()).toEqual([31, 32, 33]);
    expect(device.stats.files).toBe(1);
    await clock.advance(60_000);
    const lines = JSON.stringify(link.diags);
    expect(lines).toContain('File f1.bin stored');
    expect(lines).toContain('File f2.bin (32) discarded: size or sha256 does not match');
    expect(lines).toContain('File f3.bin (33) not fetched: HTTP 404: File not found');
    // a network failure: no acknowledgement, so the portal sends it again; then it succeeds
    link.downloadsFail = true;
    link.push({ commands: [{ id: 34, method: 'Admin.File', args: args(1) }] });
    await clock.advance(0);
    expect(link.acks).not.toContain(34);
    expect(device.stats.errors).toBe(1);
    link.downloadsFail = false;
    link.push({ commands: [{ id: 34, method: 'Admin.File', args: args(1) }] });
    await clock.advance(0);
    expect(link.acks.filter((id) => id === 34)).toHaveLength(1);
    await device.stop();
  });

  it('Admin.Firmware: the new firmware string is reported in the next diagnostics message', async () => {
    const { clock, link, device } = setup();
    device.start();
    await clock.advance(0);
    expect(link.diags[0]).toMatchObject({ fw: 'SFW110-3.1.0' });
    link.push({
      commands: [
        { id: 41, method: 'Admin.Firmware', args: { firmwareName: 'SFW110-3.2.0' } },
        { id: 42, method: 'Admin.Firmware', args: { firmwareName: 'latest' } },
      ],
    });
    await clock.advance(0);
    expect(link.acks).toEqual([41, 42]);
    expect(device.firmware).toBe('SFW110-3.2.0');
    await clock.advance(60_000);
    const last = link.diags.at(-1)!;
    expect(last).toMatchObject({ fw: 'SFW110-3.2.0' });
    expect(JSON.stringify(last.log)).toContain('Firmware updated to SFW110-3.2.0');
    expect(JSON.stringify(link.diags)).toContain('Firmware update (42) refused');
    expect(device.stats.firmware).toBe(1);
    await device.stop();
  });

  it('keeps records while the link is down and delivers them after reconnecting with backoff', async () => {
    const { clock, link, device } = setup();
    device.start();
    await clock.advance(0);
    link.cut();
    const attempts0 = link.connectAttempts;
    await clock.advance(300_000);
    expect(link.records).toHaveLength(1);
    expect(device.queued).toBeGreaterThanOrEqual(5);
    // backoff: fewer attempts than a retry every second would make
    const attempts = link.connectAttempts - attempts0;
    expect(attempts).toBeGreaterThan(3);
    expect(attempts).toBeLessThan(20);
    expect(device.stats.errors).toBeGreaterThan(3);
    link.restore();
    await clock.advance(120_000);
    expect(device.queued).toBe(0);
    expect(link.records.length).toBeGreaterThanOrEqual(8);
    const ts = link.records.map((r) => r.ts);
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
    expect(device.stats.reconnects).toBe(1);
    await device.stop();
  });

  it('stop() ends the timers', async () => {
    const { clock, link, device } = setup();
    device.start();
    await clock.advance(0);
    await device.stop();
    await clock.advance(600_000);
    expect(link.records).toHaveLength(1);
    expect(clock.pending).toBe(0);
  });
});

describe('fleet', () => {
  it('runs devices with bounded concurrency and sums their statistics', async () => {
    const clock = new FakeClock(Date.UTC(2026, 5, 1, 8));
    const links = new Map<string, MemoryLink>();
    let active = 0;
    let peak = 0;
    let hold = true;
    const held: (() => void)[] = [];
    const ids = Array.from({ length: 12 }, (_, i) => `FLT${String(i).padStart(6, '0')}`);
    const fleet = startFleet({
      devices: ids.map((id, i) => ({
        id,
        key: 'k',
        model: ['ORB-C1', 'ORB-X1', 'QUAD-C2', 'QUAD-X2'][i % 4] ?? 'ORB-C1',
      })),
      transport: 'mqtt',
      clock,
      concurrency: 3,
      staggerMs: 0,
      linkFactory: (d) => {
        const link = new MemoryLink(() => clock.now());
        const send = link.sendRecords.bind(link);
        link.sendRecords = async (records) => {
          active += 1;
          peak = Math.max(peak, active);
          if (hold) await new Promise<void>((resolve) => held.push(resolve));
          active -= 1;
          return send(records);
        };
        links.set(d.id, link);
        return link;
      },
    });
    await clock.advance(0);
    // twelve devices due at once, three sends in flight, the rest waiting for a slot
    expect(active).toBe(3);
    let rounds = 0;
    while (held.length > 0) {
      for (const release of held.splice(0)) release();
      await flush();
      expect(active).toBeLessThanOrEqual(3);
      rounds += 1;
    }
    expect(rounds).toBe(4);
    expect(fleet.stats.records).toBe(12);
    hold = false;
    await clock.advance(120_000);
    expect(peak).toBe(3);
    const stats = fleet.stats;
    expect(stats.devices).toBe(12);
    expect(stats.records).toBe(36);
    expect(stats.online).toBe(12);
    expect(stats.diags).toBe(12);
    expect([...links.values()].every((l) => l.records.length === 3)).toBe(true);
    await fleet.stop();
  });

  it('refuses an unknown model', () => {
    expect(() =>
      startFleet({ devices: [{ id: 'X', key: 'k', model: 'ORB-Z9' }], transport: 'http', httpUrl: 'http://x' }),
    ).toThrow(/Unknown model/);
  });

  it('createGate runs at most n tasks at once, in order', async () => {
    const gate = createGate(2);
    const order: number[] = [];
    let running = 0;
    let peak = 0;
    await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        gate(async () => {
          running += 1;
          peak = Math.max(peak, running);
          order.push(n);
          await new Promise((resolve) => setImmediate(resolve));
          running -= 1;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });
});
