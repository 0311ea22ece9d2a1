/** Benchmark records: the simulator's ORB-C1 model cut to 20 measurement keys (light import for the publisher process). */
import type { DeviceRecord } from '@portal/core';
import { SIMULATOR_COMMON_KEYS } from '@portal/core/testing';
import { createDeviceModel, type DeviceModel } from '../../apps/simulator/src/models';

/** The 20 measurement keys of the benchmark records (an ORB-C1's own sensors and inputs). */
export const RECORD_KEYS = [
  ...SIMULATOR_COMMON_KEYS,
  'analog1',
  'analog2',
  'digital1',
  'hourmeter_hrs',
  'coolant_temp',
] as const;

/** Realistic records of one device: the simulator's ORB-C1 model, cut to the 20 keys (events kept). */
export class RecordSource {
  private readonly model: DeviceModel;
  constructor(seed: string) {
    this.model = createDeviceModel('ORB-C1', seed);
  }
  at(ts: number): DeviceRecord {
    const full = this.model.sample(ts) as Record<string, unknown>;
    const record: Record<string, unknown> = { ts: full.ts };
    for (const key of RECORD_KEYS) record[key] = full[key] ?? 0;
    if (full.events) record.events = full.events;
    return record as DeviceRecord;
  }
}
