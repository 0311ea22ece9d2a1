import { describe, expect, it } from 'vitest';
import {
  MfaRecoveryBodySchema,
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_FORMAT_MESSAGE,
  formatRecoveryCode,
  isValidRecoveryCode,
  normaliseRecoveryCode,
} from '../src/index';

describe('recovery codes', () => {
  it('the alphabet has 32 distinct characters and none that reads as another (i, l, o, u)', () => {
    expect(new Set(RECOVERY_CODE_ALPHABET).size).toBe(32);
    expect(RECOVERY_CODE_ALPHABET).not.toMatch(/[ilou]/);
  });

  it('formats 8 characters as xxxx-xxxx', () => expect(formatRecoveryCode('7kq2m9xd')).toBe('7kq2-m9xd'));

  it.each([
    ['7kq2-m9xd', '7kq2-m9xd'],
    ['7KQ2-M9XD', '7kq2-m9xd'],
    [' 7kq2 m9xd ', '7kq2-m9xd'],
    ['7kq2m9xd', '7kq2-m9xd'],
    ['7k-q2-m9-xd', '7kq2-m9xd'],
    ['oi1l-0000', '0111-0000'],
    ['7kq2-m9x', null],
    ['7kq2-m9xdd', null],
    ['7kq2-m9xu', null],
    ['7kq2_m9xd', null],
    ['', null],
    ['__proto__', null],
    ['7kq2\u0000m9xd', null],
    [`7kq2-m9xd${' '.repeat(40)}`, null],
  ])('normaliseRecoveryCode(%j) -> %j', (input, out) => {
    expect(normaliseRecoveryCode(input)).toBe(out);
    expect(isValidRecoveryCode(input)).toBe(out !== null);
  });

  it('the request body parses to the xxxx-xxxx form and names the rule when it fails', () => {
    expect(MfaRecoveryBodySchema.parse({ recoveryCode: '7KQ2 M9XD' })).toEqual({ recoveryCode: '7kq2-m9xd' });
    const bad = MfaRecoveryBodySchema.safeParse({ recoveryCode: '123456' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(RECOVERY_CODE_FORMAT_MESSAGE);
    expect(MfaRecoveryBodySchema.safeParse({ recoveryCode: '\ud800' }).success).toBe(false);
    expect(MfaRecoveryBodySchema.safeParse({ recoveryCode: '7kq2-m9xd', code: '123456' }).success).toBe(false);
  });
});
