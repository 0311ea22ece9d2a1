/** API credentials and virtual devices (issue 16): the shared rules of keys, bearer headers and ids. */
import { describe, expect, it } from 'vitest';
import {
  API_KEY_PATTERN,
  ApiCredentialCreateBodySchema,
  VIRTUAL_DEVICE_ID_PATTERN,
  VirtualDeviceCreateBodySchema,
  accessAllows,
  apiUnavailableMessage,
  bearerKeyOf,
  curlExample,
  isDeviceRouteId,
  isSessionOnlyPath,
  newVirtualDeviceId,
} from '../src/index';

describe('bearer headers', () => {
  it('reads the key of a Bearer header, any case, and nothing else', () => {
    expect(bearerKeyOf('Bearer ppk_abc')).toBe('ppk_abc');
    expect(bearerKeyOf('bearer   ppk_abc  ')).toBe('ppk_abc');
    expect(bearerKeyOf('Bearer')).toBe('');
    expect(bearerKeyOf('Bearer a b')).toBeUndefined();
    expect(bearerKeyOf('Device abc')).toBeUndefined();
    expect(bearerKeyOf('Basic dXNlcjpwYXNz')).toBeUndefined();
    expect(bearerKeyOf(undefined)).toBeUndefined();
    expect(bearerKeyOf(['Bearer x'])).toBeUndefined();
  });

  it('recognises the key shape it issues', () => {
    expect(API_KEY_PATTERN.test(`ppk_${'a'.repeat(43)}`)).toBe(true);
    expect(API_KEY_PATTERN.test(`ppk_${'a'.repeat(42)}`)).toBe(false);
    expect(API_KEY_PATTERN.test(`xyz_${'a'.repeat(43)}`)).toBe(false);
  });
});

describe('what a key may reach', () => {
  it('refuses the credential, password, MFA and session calls, and nothing else', () => {
    for (const path of [
      '/api/api-credentials',
      '/api/api-credentials/:id',
      '/api/auth/login',
      '/api/auth/session',
      '/api/auth/logout',
      '/api/account/password',
      '/api/account/mfa/disable',
      '/api/account/mfa/totp/setup',
    ]) {
      expect(isSessionOnlyPath(path), path).toBe(true);
    }
    for (const path of [
      '/api/groups',
      '/api/device/:id/data',
      '/api/account/profile',
      '/api/account/notifications',
      '/api/api-credentialsx',
      '/api/virtual-devices',
    ]) {
      expect(isSessionOnlyPath(path), path).toBe(false);
    }
  });

  it('lets a read-only key read only', () => {
    expect(accessAllows('read-only', 'GET')).toBe(true);
    expect(accessAllows('read-only', 'HEAD')).toBe(true);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(accessAllows('read-only', method)).toBe(false);
      expect(accessAllows('read-write', method)).toBe(true);
    }
  });

  it("words the plan's refusal like the other plan refusals", () => {
    expect(apiUnavailableMessage('Basic')).toBe('The API is unavailable on the Basic Plan');
  });
});

describe('contracts', () => {
  it('trims the name and takes an optional whole-second expiry', () => {
    expect(ApiCredentialCreateBodySchema.parse({ name: '  Export ', access: 'read-write' })).toEqual({
      name: 'Export',
      access: 'read-write',
    });
    expect(ApiCredentialCreateBodySchema.safeParse({ name: '   ', access: 'read-only' }).success).toBe(false);
    expect(ApiCredentialCreateBodySchema.safeParse({ name: 'x'.repeat(41), access: 'read-only' }).success).toBe(false);
    expect(ApiCredentialCreateBodySchema.safeParse({ name: 'x', access: 'write' }).success).toBe(false);
    expect(ApiCredentialCreateBodySchema.safeParse({ name: 'x', access: 'read-only', expiresAt: 1.5 }).success).toBe(
      false,
    );
    expect(ApiCredentialCreateBodySchema.safeParse({ name: 'x', access: 'read-only', id: 'y' }).success).toBe(false);
  });

  it('sanitises a virtual device name and needs one', () => {
    expect(VirtualDeviceCreateBodySchema.parse({ name: 'Tank "4"' }).name).toBe('Tank 4');
    expect(VirtualDeviceCreateBodySchema.safeParse({ name: '' }).success).toBe(false);
    expect(VirtualDeviceCreateBodySchema.safeParse({ name: 'x'.repeat(21) }).success).toBe(false);
  });
});

describe('virtual device ids', () => {
  it("are '0-' and 7 characters of the device alphabet, which routes accept", () => {
    const id = newVirtualDeviceId((n) => 'A1B2C3D4E5'.slice(0, n));
    expect(id).toBe('0-A1B2C3D');
    expect(VIRTUAL_DEVICE_ID_PATTERN.test(id)).toBe(true);
    expect(isDeviceRouteId(id)).toBe(true);
    expect(() => newVirtualDeviceId(() => 'abc')).toThrow(RangeError);
    expect(() => newVirtualDeviceId(() => 'abcdefg')).toThrow(RangeError);
  });

  it('gives a curl example with the bearer header', () => {
    expect(curlExample('https://portal.example.com')).toBe(
      'curl -H "Authorization: Bearer $PORTAL_API_KEY" https://portal.example.com/api/groups',
    );
  });
});
