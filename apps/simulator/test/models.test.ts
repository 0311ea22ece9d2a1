import { describe, expect, it } from 'vitest';
import { DeviceRecordSchema, RECORD_LIMITS, decodeDm1Frames, parseDeviceRecord, type DeviceRecord } from '@portal/core';
import { SIMULATOR_COMMON_KEYS } from '@portal/core/testing';
import { DeviceModel, MODEL_NAMES, MODELS, levelBand, type ModelName } from '../src/models';
import { dm1, eec1, j1939Id, PGN } from '../src/j1939';
import { decodeEec1, decodeEt1, decodeFuel, decodeId } from './j1939-decode';

const START = Date.UTC(2026, 2, 1, 6) / 1000;

function run(
  model: ModelName,
  seed: string | number,
  samples: number,
  step = 60,
): { records: DeviceRecord[]; m: DeviceModel } {
  const m = new DeviceModel({ model, seed });
  const records: DeviceRecord[] = [];
  for (let i = 0; i < samples; i += 1) records.push(m.sample(START + i * step));
  return { records, m };
}

describe('models', () => {
  it('every record of every model passes DeviceRecordSchema and the ingest rules, across many seeds', () => {
    let checked = 0;
    for (const model of MODEL_NAMES) {
      for (let seed = 0; seed < 25; seed += 1) {
        const { records } = run(model, `seed-${seed}`, 240, 30 + seed * 7);
        for (const record of records) {
          const parsed = DeviceRecordSchema.safeParse(record);
          if (!parsed.success) throw new Error(`${model} seed ${seed}: ${parsed.error.message}`);
          const ingest = parseDeviceRecord(JSON.parse(JSON.stringify(record)), record.ts);
          expect(ingest.ok && ingest.dropped).toEqual([]);
          expect(Object.keys(record).length).toBeLessThanOrEqual(RECORD_LIMITS.maxKeys);
          checked += 1;
        }
        // a full transmit batch stays far below the payload limit
        expect(Buffer.byteLength(JSON.stringify(records.slice(0, 20)))).toBeLessThan(RECORD_LIMITS.maxPayloadBytes);
      }
    }
    expect(checked).toBe(4 * 25 * 240);
  });

  it('reports the channels of its model and the common measurements', () => {
    for (const model of MODEL_NAMES) {
      const spec = MODELS[model];
      const { records } = run(model, 'channels', 200);
      const keys = new Set(records.flatMap((r) => Object.keys(r)));
      for (const k of [...SIMULATOR_COMMON_KEYS, 'hourmeter_hrs', 'cp1', 'cp2']) {
        expect(keys.has(k), `${model} ${k}`).toBe(true);
      }
      for (let i = 1; i <= 6; i += 1) expect(keys.has(`state${i}_hrs`)).toBe(true);
      for (const kind of ['analog', 'current', 'digital', 'freq', 'duty', 'pulse'] as const) {
        for (let i = 1; i <= 5; i += 1)
          expect(keys.has(`${kind}${i}`), `${model} ${kind}${i}`).toBe(i <= spec.channels[kind]);
      }
      expect(keys.has('wifi_rssi')).toBe(spec.wifi);
      expect(keys.has('can1')).toBe(spec.canBuses >= 1);
      expect(keys.has('can2')).toBe(spec.canBuses >= 2);
      for (const r of records) {
        expect(r.vsys as number).toBeGreaterThan(10.5);
        expect(r.vsys as number).toBeLessThan(14.8);
        expect([-114, ...Array.from({ length: 45 }, (_, i) => -105 + i)]).toContain(r.gsm_rssi);
      }
    }
    // -114 (unknown) shows up now and then
    expect(run('ORB-C1', 'rssi', 400).records.some((r) => r.gsm_rssi === -114)).toBe(true);
  });

  it('is deterministic by seed and differs between seeds', () => {
    const a = run('QUAD-X2', 'ABC123456', 300).records;
    const b = run('QUAD-X2', 'ABC123456', 300).records;
    const c = run('QUAD-X2', 'ABC123457', 300).records;
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
  });

  it('raises events in all four level bands', () => {
    for (const model of MODEL_NAMES) {
      const bands = new Set<string>();
      for (let seed = 0; seed < 6; seed += 1) {
        for (const r of run(model, `ev${seed}`, 1500).records) {
          for (const e of r.events ?? []) {
            expect(e.lv).toBeDefined();
            const band = levelBand(e.lv ?? 0);
            expect(band, e.msg).not.toBeNull();
            bands.add(band ?? '');
            expect(e.topic).toBeTruthy();
          }
        }
      }
      expect([...bands].sort(), model).toEqual(['alarm', 'alert', 'info', 'warning']);
    }
  });

  it('hour meters only grow, and hourmeter_hrs grows exactly while the engine runs', () => {
    const m = new DeviceModel({ model: 'QUAD-C2', seed: 'hours' });
    let prev = m.sample(START);
    let grewWhileRunning = 0;
    for (let i = 1; i < 1500; i += 1) {
      const wasRunning = m.running;
      const r = m.sample(START + i * 60);
      for (let s = 1; s <= 6; s += 1)
        expect(r[`state${s}_hrs`] as number).toBeGreaterThanOrEqual(prev[`state${s}_hrs`] as number);
      const grew = (r.hourmeter_hrs as number) - (prev.hourmeter_hrs as number);
      if (wasRunning) {
        expect(grew).toBeCloseTo(60 / 3600, 2);
        grewWhileRunning += 1;
      } else expect(grew).toBe(0);
      prev = r;
    }
    expect(grewWhileRunning).toBeGreaterThan(100);
  });

  it('moves along a path: positions change while working, stay near the yard, course follows', () => {
    const { records } = run('ORB-X1', 'track', 1000);
    const positions = new Set(
      records.map((r) => `${(r.gps_lat as number).toFixed(4)},${(r.gps_lon as number).toFixed(4)}`),
    );
    expect(positions.size).toBeGreaterThan(50);
    const lat0 = records[0]?.gps_lat as number;
    const lon0 = records[0]?.gps_lon as number;
    for (const r of records) {
      expect(Math.abs((r.gps_lat as number) - lat0)).toBeLessThan(0.05);
      expect(Math.abs((r.gps_lon as number) - lon0)).toBeLessThan(0.1);
      expect(r.gps_cog as number).toBeGreaterThanOrEqual(0);
      expect(r.gps_cog as number).toBeLessThan(360);
    }
    const geofence = records.flatMap((r) => r.events ?? []).filter((e) => e.topic === 'geofence');
    expect(geofence.some((e) => e.msg === 'Left geofence Yard')).toBe(true);
  });
});

describe('J1939 frames', () => {
  it('encodes identifiers as priority, PGN and source', () => {
    expect(j1939Id(3, PGN.EEC1, 0)).toBe(0x0cf00400);
    expect(j1939Id(6, PGN.DM1, 0)).toBe(0x18feca00);
    expect(decodeId(0x18fefc17)).toEqual({ priority: 6, pgn: 65276, source: 0x17 });
    expect(eec1(1500.5, 40).data) // 1500.5 rpm / 0.125 = 12004 = 0x2EE4, little endian; torque 40 + 125 = 0xA5
      .toBe('F3FFA5E42E00FFFF');
    // an SPN above 16 bits keeps its top 3 bits in byte 5; the portal's own decoder reads it
    const [decoded] = decodeDm1Frames([
      dm1([
        { spn: 520_192, fmi: 31, occurrences: 3 },
        { spn: 110, fmi: 0, occurrences: 1 },
      ]),
    ]);
    expect(decoded?.faults).toEqual([
      { spn: 520_192, fmi: 31, occurrences: 3 },
      { spn: 110, fmi: 0, occurrences: 1 },
    ]);
  });

  it('CAN frames decode back to the engine values of each record', () => {
    let frames = 0;
    let sawCoolantFault = false;
    for (const model of ['ORB-X1', 'QUAD-C2', 'QUAD-X2'] as const) {
      for (let seed = 0; seed < 4; seed += 1) {
        const m = new DeviceModel({ model, seed: `can${seed}` });
        for (let i = 0; i < 1500; i += 1) {
          const r = m.sample(START + i * 60);
          const engine = m.engine;
          if (!r.can1) {
            expect(m.machineState).toBe(1); // the bus sleeps with the ignition off
            continue;
          }
          const byPgn = new Map(r.can1.map((f) => [decodeId(f.id).pgn, f]));
          expect([...byPgn.keys()].sort()).toEqual([PGN.DM1, PGN.EEC1, PGN.ET1, PGN.DD].sort());
          const eec = decodeEec1(byPgn.get(PGN.EEC1)?.data ?? '');
          expect(Math.abs(eec.rpm - engine.rpm)).toBeLessThanOrEqual(0.0625);
          if (m.running) expect(eec.rpm).toBeGreaterThan(500);
          else expect(eec.rpm).toBe(0);
          expect(Math.abs(decodeEt1(byPgn.get(PGN.ET1)?.data ?? '') - engine.coolant)).toBeLessThanOrEqual(0.5);
          expect(Math.abs(decodeFuel(byPgn.get(PGN.DD)?.data ?? '') - engine.fuel)).toBeLessThanOrEqual(0.2);
          const [dm] = decodeDm1Frames([byPgn.get(PGN.DM1)!]);
          expect(dm!.faults.map((d) => `${d.spn}:${d.fmi}`).sort()).toEqual(
            engine.faults.map((d) => `${d.spn}:${d.fmi}`).sort(),
          );
          if (dm!.faults.some((d) => d.spn === 110 && d.fmi === 0)) {
            sawCoolantFault = true;
            expect(dm!.lamps.redStop).toBe(true);
            expect(engine.coolant).toBeGreaterThan(99);
          }
          for (const f of [...r.can1, ...(r.can2 ?? [])]) expect(typeof f.id === 'number' && f.id < 2 ** 29).toBe(true);
          // Each message comes from the ECU that sends it (J1939 addresses: engine #1 0x00,
          // instrument cluster 0x17, transmission #1 0x03).
          expect(Object.fromEntries(r.can1.map((f) => [decodeId(f.id).pgn, decodeId(f.id).source]))).toEqual({
            [PGN.EEC1]: 0x00,
            [PGN.ET1]: 0x00,
            [PGN.DD]: 0x17,
            [PGN.DM1]: 0x00,
          });
          if (r.can2) expect(r.can2.map((f) => decodeId(f.id))).toEqual([{ priority: 6, pgn: PGN.DM1, source: 0x03 }]);
          frames += r.can1.length;
        }
      }
    }
    expect(frames).toBeGreaterThan(1000);
    expect(sawCoolantFault).toBe(true);
  });
});
