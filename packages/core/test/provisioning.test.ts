import { describe, expect, it } from 'vitest';
import {
  DEVICE_ID_PATTERN,
  PROV_LIMITS,
  PROV_LIST_MESSAGES,
  PackingSlipBodySchema,
  ProvLabelQuerySchema,
  ProvLabelsBodySchema,
  batchCount,
  batchCsvFileName,
  batchResultsTable,
  labelFileName,
  labelsFileName,
  packingSlipFileName,
  prefixError,
  randomDeviceId,
  tableToCsv,
} from '../src/index';

const firstMessage = (
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } },
  input: unknown,
) => {
  const result = schema.safeParse(input);
  return result.success ? null : (result.error?.issues[0]?.message ?? '');
};

describe('label and packing-slip contracts', () => {
  it('label format: pdf by default, png, nothing else', () => {
    expect(ProvLabelQuerySchema.parse({})).toEqual({ format: 'pdf' });
    expect(ProvLabelQuerySchema.parse({ format: 'png' })).toEqual({ format: 'png' });
    for (const bad of [
      { format: 'svg' },
      { format: '' },
      { format: 'PDF' },
      { size: 1 },
      { __proto__: 'x', format: 'pdf', x: 1 },
    ])
      expect(ProvLabelQuerySchema.safeParse(bad).success).toBe(false);
  });

  it('device lists: 1 to 200 device ids, each once', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `T${String(i).padStart(8, '0')}`);
    expect(ProvLabelsBodySchema.parse({ deviceList: ids(PROV_LIMITS.batchMax) }).deviceList).toHaveLength(200);
    expect(firstMessage(ProvLabelsBodySchema, { deviceList: [] })).toBe(PROV_LIST_MESSAGES.listEmpty);
    expect(firstMessage(ProvLabelsBodySchema, { deviceList: ids(201) })).toBe(PROV_LIST_MESSAGES.listTooLong);
    expect(firstMessage(ProvLabelsBodySchema, { deviceList: ['AAAAAAAAA', 'AAAAAAAAA'] })).toBe(
      PROV_LIST_MESSAGES.listRepeats,
    );
    for (const bad of [['abc'], ['aaaaaaaaa'], [null], ['0-ABCDEFG'], 'AAAAAAAAA', null, undefined])
      expect(ProvLabelsBodySchema.safeParse({ deviceList: bad }).success).toBe(false);
    expect(ProvLabelsBodySchema.safeParse({ deviceList: ['AAAAAAAAA'], extra: 1 }).success).toBe(false);
  });

  it('packing slip: reference and address trimmed, optional, limited', () => {
    expect(PackingSlipBodySchema.parse({ deviceList: ['AAAAAAAAA'], reference: '  PO-1 ', address: ' A\nB ' })).toEqual(
      {
        deviceList: ['AAAAAAAAA'],
        reference: 'PO-1',
        address: 'A\nB',
      },
    );
    expect(PackingSlipBodySchema.safeParse({ deviceList: ['AAAAAAAAA'], reference: 'x'.repeat(101) }).success).toBe(
      false,
    );
    expect(PackingSlipBodySchema.safeParse({ deviceList: ['AAAAAAAAA'], address: 'x'.repeat(501) }).success).toBe(
      false,
    );
    expect(PackingSlipBodySchema.safeParse({ deviceList: ['AAAAAAAAA'], reference: 'a\u0000' }).success).toBe(false);
    expect(PackingSlipBodySchema.safeParse({ deviceList: ['AAAAAAAAA'], note: 'x' }).success).toBe(false);
  });

  it('file names', () => {
    expect(labelFileName('ABC123456', 'png')).toBe('ABC123456.png');
    expect(labelsFileName(['ABC123456', 'XYZ'])).toBe('labels-2-ABC123456.pdf');
    expect(packingSlipFileName('2026-11-27')).toBe('packing-slip-2026-11-27.pdf');
    expect(batchCsvFileName('2026-11-27', 3)).toBe('batch-2026-11-27-3.csv');
  });
});

describe('batch mode', () => {
  it('random device ids: the prefix, then characters of the id alphabet, 9 in all', () => {
    const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => i * 37);
    const id = randomDeviceId('E2E', bytes);
    expect(id).toMatch(DEVICE_ID_PATTERN);
    expect(id.startsWith('E2E')).toBe(true);
    expect(randomDeviceId('', bytes)).toHaveLength(9);
    expect(() => randomDeviceId('abc', bytes)).toThrow(RangeError);
    expect(() => randomDeviceId('TOOLONG', bytes)).toThrow(RangeError);
  });

  it('batch count: a whole number from 1 to the maximum', () => {
    expect(batchCount('3', 200)).toBe(3);
    expect(batchCount(200, 200)).toBe(200);
    for (const bad of ['0', '201', '2.5', '', ' ', 'x', null, undefined, -1, NaN, '__proto__'])
      expect(batchCount(bad, 200)).toBeNull();
  });

  it('prefix: at most 6 uppercase letters or digits', () => {
    expect(prefixError('')).toBeNull();
    expect(prefixError('ABC123')).toBeNull();
    expect(prefixError('ABC1234')).not.toBeNull();
    expect(prefixError('abc')).not.toBeNull();
  });

  it('results as CSV: credentials of the devices made, the message of those that failed', () => {
    const csv = tableToCsv(
      batchResultsTable([
        {
          ok: true,
          deviceid: 'A00000001',
          model: 'ORB-C1',
          fw: 'SFW003-1.0.0',
          name: 'A00000001',
          setupPassword: 'PW',
          deviceKey: '-key',
        },
        { ok: false, deviceid: 'A00000002', message: 'Network Error, try again' },
      ]),
    );
    expect(csv).toBe(
      'Device ID,Model,Firmware,Name,Setup password,Device key,Result\r\n' +
        "A00000001,ORB-C1,SFW003-1.0.0,A00000001,PW,'-key,Created\r\n" +
        'A00000002,,,,,,"Network Error, try again"\r\n',
    );
  });
});
