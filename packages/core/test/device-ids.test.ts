/** New device ids (the provisioning CLI) and device ids as typed (the add-device form). */
import { describe, expect, it } from 'vitest';
import {
  DEVICE_ID_ALPHABET,
  DEVICE_ID_PATTERN,
  DEVICE_ID_PREFIX_MAX_LENGTH,
  ID_LENGTHS,
  isDeviceIdPrefix,
  isDevicePathId,
  newDeviceId,
  normaliseDeviceIdInput,
} from '../src/index';

const repeat = (c: string) => (n: number) => c.repeat(n);

describe('the device id alphabet', () => {
  it('is exactly the characters DEVICE_ID_PATTERN accepts', () => {
    expect(DEVICE_ID_ALPHABET).toHaveLength(36);
    expect(new Set(DEVICE_ID_ALPHABET).size).toBe(36);
    for (let code = 0; code < 0x250; code += 1) {
      const c = String.fromCharCode(code);
      expect(DEVICE_ID_PATTERN.test(c.repeat(9))).toBe(DEVICE_ID_ALPHABET.includes(c));
    }
  });
});

describe('isDeviceIdPrefix', () => {
  it('accepts up to 6 uppercase letters or digits, the empty prefix included', () => {
    for (const prefix of ['', 'A', 'ORB', '0', 'ABC123', 'ZZZZZZ']) expect(isDeviceIdPrefix(prefix)).toBe(true);
    expect(DEVICE_ID_PREFIX_MAX_LENGTH).toBe(6);
  });

  it('refuses anything else', () => {
    for (const prefix of [
      'ABCDEFG',
      'abc',
      'A-B',
      'A B',
      ' ',
      '__proto__',
      'É',
      '\u0000',
      'A\n',
      null,
      undefined,
      42,
      {},
    ])
      expect(isDeviceIdPrefix(prefix)).toBe(false);
  });
});

describe('newDeviceId', () => {
  it('the prefix and random characters up to 9, a valid device path id', () => {
    expect(newDeviceId('', repeat('A'))).toBe('AAAAAAAAA');
    expect(newDeviceId('ORB', repeat('7'))).toBe('ORB777777');
    expect(newDeviceId('ABCDEF', repeat('Z'))).toBe('ABCDEFZZZ');
    const id = newDeviceId('Q', (n) => DEVICE_ID_ALPHABET.slice(0, n));
    expect(id).toBe('QABCDEFGH');
    expect(id).toHaveLength(ID_LENGTHS.device);
    expect(isDevicePathId(id)).toBe(true);
  });

  it('asks the random source for exactly the missing characters', () => {
    const asked: number[] = [];
    newDeviceId('AB', (n) => {
      asked.push(n);
      return '1'.repeat(n);
    });
    expect(asked).toEqual([7]);
  });

  it('refuses a bad prefix', () => {
    for (const prefix of ['ABCDEFG', 'abc', '__proto__', 'A-'] as string[])
      expect(() => newDeviceId(prefix, repeat('A'))).toThrow(RangeError);
  });

  it('refuses a random source that gives too few, too many or foreign characters', () => {
    for (const source of [
      () => '',
      (n: number) => 'A'.repeat(n - 1),
      (n: number) => 'A'.repeat(n + 1),
      (n: number) => 'a'.repeat(n),
      (n: number) => '-'.repeat(n),
      () => null as unknown as string,
      () => 12345678 as unknown as string,
    ])
      expect(() => newDeviceId('X', source)).toThrow(RangeError);
  });
});

describe('normaliseDeviceIdInput', () => {
  it('upper-cases, keeps letters and digits only, at most 9 characters', () => {
    const cases: [unknown, string][] = [
      ['', ''],
      ['abc123def', 'ABC123DEF'],
      [' ab-c1 2d.e f ', 'ABC12DEF'],
      ['ABCDEFGHIJKL', 'ABCDEFGHI'],
      ['__proto__', 'PROTO'],
      ['é\u0000\n\t<script>', 'SCRIPT'],
      ['ab\u{1F600}cd', 'ABCD'],
      [null, ''],
      [undefined, ''],
      [123, ''],
    ];
    for (const [input, expected] of cases) expect(normaliseDeviceIdInput(input)).toBe(expected);
  });

  it('its output is always a prefix of a valid device id', () => {
    for (const input of ['x', 'abcdefghijklmnop', '1-2-3-4-5-6-7-8-9-0', 'ÿÿÿ', 'ß']) {
      const out = normaliseDeviceIdInput(input);
      expect(out.length).toBeLessThanOrEqual(9);
      expect([...out].every((c) => DEVICE_ID_ALPHABET.includes(c))).toBe(true);
    }
  });
});
