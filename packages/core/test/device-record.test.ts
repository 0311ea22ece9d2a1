import { describe, expect, it } from 'vitest';
import { RECORD_LIMITS, RecordValueSchema, VALUE_MAX, parseDeviceRecord } from '../src/index';

const NOW = 1_700_000_000;

// parseDeviceRecord checks measurement values without the schema (it runs for every key of
// every record ingested): it must keep exactly what RecordValueSchema accepts, and drop the rest.
const VALUES: unknown[] = [
  0,
  -0,
  1.5,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  VALUE_MAX,
  -VALUE_MAX,
  VALUE_MAX + 2,
  1e23,
  -1e23,
  [1, 1e308],
  '',
  'ok',
  'x'.repeat(RECORD_LIMITS.maxStringLength),
  'x'.repeat(RECORD_LIMITS.maxStringLength + 1),
  '😀'.repeat(RECORD_LIMITS.maxStringLength / 2),
  '😀'.repeat(RECORD_LIMITS.maxStringLength / 2 + 1),
  '😀'.repeat(RECORD_LIMITS.maxStringLength),
  '😀'.repeat(RECORD_LIMITS.maxStringLength + 1),
  '\ud800'.repeat(RECORD_LIMITS.maxStringLength + 1),
  'a\u0000b',
  'a\ud800b',
  'a\udc00',
  '\ud83d\ude00 paired',
  true,
  false,
  null,
  undefined,
  {},
  { a: 1 },
  [],
  [1, 2.5, -3],
  [1, '2'],
  [1, null],
  [1, Number.NaN],
  [[1]],
  Array.from({ length: RECORD_LIMITS.maxArrayLength }, (_, i) => i),
  Array.from({ length: RECORD_LIMITS.maxArrayLength + 1 }, (_, i) => i),
  new Array(3),
  10n,
  Symbol('s'),
  () => 1,
  new Date(0),
];

describe('parseDeviceRecord', () => {
  it.each(VALUES.map((v, i) => [i, v] as const))(
    'value #%i is kept exactly when RecordValueSchema accepts it',
    (_, value) => {
      const schema = RecordValueSchema.safeParse(value);
      const parsed = parseDeviceRecord({ ts: NOW, k: value }, NOW);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      if (schema.success) {
        expect(parsed.record.k).toEqual(schema.data);
        expect(parsed.dropped).toEqual([]);
      } else {
        expect('k' in parsed.record).toBe(false);
        expect(parsed.dropped).toHaveLength(1);
        expect(parsed.dropped[0]!.reason).toMatch(
          /^Key "k" (has a value of the wrong type|holds a number outside -9007199254740991 to 9007199254740991)$/,
        );
      }
    },
  );

  it('drops numbers beyond 2^53 - 1 with a reason naming the range, and keeps the rest of the record', () => {
    for (const big of [1e308, -1e308, 1e23, VALUE_MAX + 2]) {
      const parsed = parseDeviceRecord({ ts: NOW, big, ok: 1, list: [1, big] }, NOW);
      expect(parsed).toEqual({
        ok: true,
        record: { ts: NOW, ok: 1 },
        dropped: [
          { key: 'big', reason: 'Key "big" holds a number outside -9007199254740991 to 9007199254740991' },
          { key: 'list', reason: 'Key "list" holds a number outside -9007199254740991 to 9007199254740991' },
        ],
      });
    }
    const event = parseDeviceRecord({ ts: NOW, events: [{ msg: 'm', lv: 1e308 }] }, NOW);
    expect(event).toMatchObject({
      ok: true,
      record: { ts: NOW },
      dropped: [{ key: 'events', reason: 'Malformed events' }],
    });
  });

  it('drops events holding text the database cannot store (U+0000, unpaired surrogates)', () => {
    for (const msg of ['x\u0000', '\udfff']) {
      const parsed = parseDeviceRecord({ ts: NOW, events: [{ msg }], t: 1 }, NOW);
      expect(parsed.ok && parsed.record).toEqual({ ts: NOW, t: 1 });
    }
    const ok = parseDeviceRecord({ ts: NOW, events: [{ msg: '\ud83d\ude00' }] }, NOW);
    expect(ok.ok && ok.record.events).toEqual([{ msg: '\ud83d\ude00' }]);
  });

  it('takes a record of valid measurements as it is, and copies one it must change', () => {
    const clean = { ts: NOW, v: 12.5, s: 'text', b: true };
    const kept = parseDeviceRecord(clean, NOW);
    expect(kept.ok && kept.record).toBe(clean);
    const dirty = { ts: NOW, v: 12.5, _bad: 1, w: null };
    const cleaned = parseDeviceRecord(dirty, NOW);
    expect(cleaned.ok && cleaned.record).toEqual({ ts: NOW, v: 12.5 });
    expect(dirty).toEqual({ ts: NOW, v: 12.5, _bad: 1, w: null });
    const proto = parseDeviceRecord(JSON.parse(`{"ts":${NOW},"__proto__":{"x":1},"v":1}`), NOW);
    expect(proto.ok && Object.getPrototypeOf(proto.record)).toBe(Object.prototype);
    expect(proto.ok && Object.keys(proto.record)).toEqual(['ts', 'v']);
  });

  it('returns a copy of an array value, not the array given', () => {
    const input = [1, 2, 3];
    const parsed = parseDeviceRecord({ ts: NOW, a: input }, NOW);
    expect(parsed.ok && parsed.record.a).toEqual([1, 2, 3]);
    expect(parsed.ok && parsed.record.a).not.toBe(input);
  });
});
