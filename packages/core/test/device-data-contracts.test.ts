/** Contracts of the device read calls: the id in the path, the queries and the answers. */
import { describe, expect, it } from 'vitest';
import {
  AnyDeviceParamsSchema,
  DataPointSchema,
  DataPointsQuerySchema,
  DeviceEventSchema,
  DataQuerySchema,
  DataResponseSchema,
  DeviceIdParamsSchema,
  ExportQuerySchema,
  MAX_DATA_POINTS,
  MetricsQuerySchema,
  MetricsResponseSchema,
  RpcCancelResultSchema,
  ServerLogResponseSchema,
  eventLevel,
  type DataResponse,
} from '../src/index';

describe('device ids in the path', () => {
  it('DeviceIdParamsSchema (provisioning creates by id): only 9 uppercase letters or digits', () => {
    expect(DeviceIdParamsSchema.safeParse({ id: 'ABC123DEF' }).success).toBe(true);
    for (const id of ['', 'abc123def', 'ABC123DE', 'ABC123DEFG', '__proto__', '../../x', null, 7])
      expect(DeviceIdParamsSchema.safeParse({ id }).success).toBe(false);
  });

  it('AnyDeviceParamsSchema (calls on a device): any text of 1 to 64 characters, so a malformed id is a 404, not a 400', () => {
    for (const id of ['ABC123DEF', 'abc', '__proto__', 'constructor', '../../x', '0-ABCDEFG', 'x'.repeat(64)])
      expect(AnyDeviceParamsSchema.safeParse({ id }).success).toBe(true);
    for (const id of ['', 'x'.repeat(65), null, undefined, 7])
      expect(AnyDeviceParamsSchema.safeParse({ id }).success).toBe(false);
  });

  it('both refuse extra path parameters', () => {
    expect(AnyDeviceParamsSchema.safeParse({ id: 'A', slot: 'x' }).success).toBe(false);
    expect(DeviceIdParamsSchema.safeParse({ id: 'ABC123DEF', x: 1 }).success).toBe(false);
  });
});

describe('DataQuerySchema', () => {
  it('reads numbers from query text; empty values are missing', () => {
    expect(DataQuerySchema.parse({})).toEqual({});
    expect(
      DataQuerySchema.parse({ dataPoints: '5', fromTime: '1.5', toTime: '', relative: '60000', dataKeys: 'a,b' }),
    ).toEqual({ dataPoints: 5, fromTime: 1.5, toTime: undefined, relative: 60_000, dataKeys: 'a,b' });
  });

  it('dataPoints: a whole number from 1 to 10,000', () => {
    for (const dataPoints of ['1', '600', String(MAX_DATA_POINTS)])
      expect(DataQuerySchema.safeParse({ dataPoints }).success).toBe(true);
    for (const dataPoints of ['0', '-1', '1.5', '10001', 'abc', 'NaN', 'Infinity', '1e400', '__proto__'])
      expect(DataQuerySchema.safeParse({ dataPoints }).success).toBe(false);
  });

  it('relative is not negative; times are finite', () => {
    expect(DataQuerySchema.safeParse({ relative: '-1' }).success).toBe(false);
    expect(DataQuerySchema.safeParse({ fromTime: 'Infinity' }).success).toBe(false);
    expect(DataQuerySchema.safeParse({ toTime: 'x' }).success).toBe(false);
  });

  it('limits the text fields', () => {
    expect(DataQuerySchema.safeParse({ dataKeys: 'k'.repeat(5000) }).success).toBe(true);
    expect(DataQuerySchema.safeParse({ dataKeys: 'k'.repeat(5001) }).success).toBe(false);
    expect(DataQuerySchema.safeParse({ downsample: 'x'.repeat(21) }).success).toBe(false);
  });

  it('DataPointsQuerySchema uses the same dataPoints rule', () => {
    expect(DataPointsQuerySchema.parse({ dataPoints: '15' })).toEqual({ dataPoints: 15 });
    expect(DataPointsQuerySchema.safeParse({ dataPoints: '0' }).success).toBe(false);
    expect(DataPointsQuerySchema.safeParse({ dataPoints: '10001' }).success).toBe(false);
  });
});

describe('MetricsQuerySchema and ExportQuerySchema', () => {
  it('metrics: both current times required; includeLatestData true/1/false/0 only', () => {
    expect(MetricsQuerySchema.parse({ currentStartTime: '0', currentEndTime: '3600', includeLatestData: '1' })).toEqual(
      {
        currentStartTime: 0,
        currentEndTime: 3600,
        includeLatestData: true,
      },
    );
    expect(
      MetricsQuerySchema.parse({ currentStartTime: '0', currentEndTime: '1', includeLatestData: 'false' }),
    ).toMatchObject({
      includeLatestData: false,
    });
    expect(MetricsQuerySchema.safeParse({ currentStartTime: '0' }).success).toBe(false);
    expect(
      MetricsQuerySchema.safeParse({ currentStartTime: '0', currentEndTime: '1', includeLatestData: 'yes' }).success,
    ).toBe(false);
  });

  it('export: csv, json or config only', () => {
    expect(ExportQuerySchema.parse({ format: 'json', fromTime: '1' })).toEqual({ format: 'json', fromTime: 1 });
    for (const format of ['', 'CSV', 'xml', '__proto__'])
      expect(ExportQuerySchema.safeParse({ format }).error?.issues[0]?.message).toBe(
        'format must be csv, json or config',
      );
  });
});

describe('answers', () => {
  it('GET /data: points and events; fields outside the contract are dropped', () => {
    const answer: DataResponse = {
      deviceid: 'ABC123DEF',
      data: { temp: [{ v: 1, ts: 10 }], constructor: [{ v: 'x', ts: 9 }] },
      events: [{ name: null, ts: 10, topic: null, msg: 'hi', lv: null, severity: null }],
    };
    expect(DataResponseSchema.parse({ ...answer, secret: 'x' })).toEqual(answer);
    expect(DataResponseSchema.safeParse({ ...answer, data: { temp: [{ ts: 'x', v: 1 }] } }).success).toBe(false);
  });

  it('metrics, server log and rpc cancel', () => {
    const metric = { min: 1, max: 2, avg: 1.5, sum: 3, diff: 1, acc: 2, count: 2 };
    const metrics = {
      deviceid: 'A',
      currentPeriod: { startTime: 0, endTime: 3600, data: { temp: metric } },
      previousPeriod: { startTime: 0, endTime: 0, data: {} },
      currentIntermediatePeriods: [{ endTime: 3600, data: { temp: metric } }],
    };
    expect(MetricsResponseSchema.parse(metrics)).toEqual(metrics);
    expect(MetricsResponseSchema.safeParse({ ...metrics, currentIntermediatePeriods: [{ data: {} }] }).success).toBe(
      false,
    );
    expect(MetricsResponseSchema.safeParse({ ...metrics, previousPeriod: {} }).success).toBe(false);
    const log = { deviceid: 'A', entries: [], more: false, kinds: ['config'] };
    expect(ServerLogResponseSchema.parse(log)).toEqual(log);
    expect(ServerLogResponseSchema.safeParse({ deviceid: 'A', entries: [] }).success).toBe(false);
    expect(RpcCancelResultSchema.safeParse({ commandID: 1, state: 'queued' }).success).toBe(false);
  });
});

describe('record shape (spec 2 section 3)', () => {
  it('CARD-28: a data point is {v, ts (epoch seconds), source, aws_ts}; a bucket average is {v, ts}', () => {
    const point = { v: 12.5, ts: 1_795_800_000, source: 'mqtt', aws_ts: 1_795_800_000.25 };
    expect(DataPointSchema.parse(point)).toEqual(point);
    expect(new Date(point.ts * 1000).toISOString()).toBe('2026-11-27T17:20:00.000Z');
    expect(DataPointSchema.parse({ v: 1, ts: 10, source: null, aws_ts: 11 })).toMatchObject({ source: null });
    expect(DataPointSchema.parse({ v: 1, ts: 10 })).toEqual({ v: 1, ts: 10 });
    expect(DataPointSchema.safeParse({ v: 1, ts: 10, aws_ts: '11' }).success).toBe(false);
  });

  it('CARD-27: an event keeps its name; given only lv or only severity it classifies', () => {
    const onlyLv = DeviceEventSchema.parse({ name: 'coolant_high', msg: 'Coolant 109 °C', lv: 35 });
    const onlySeverity = DeviceEventSchema.parse({ name: 'door', msg: 'Door open', severity: 'WARN' });
    expect(onlyLv.name).toBe('coolant_high');
    expect(onlySeverity.name).toBe('door');
    expect([eventLevel(onlyLv), eventLevel(onlySeverity)]).toEqual(['alarm', 'warning']);
    expect(DeviceEventSchema.safeParse({ name: 'x'.repeat(65), msg: 'm' }).success).toBe(false);
    expect(DeviceEventSchema.safeParse({ name: 5, msg: 'm' }).success).toBe(false);
  });
});
