import { describe, expect, it } from 'vitest';
import {
  GROUP_ID_PATTERN,
  GROUP_NAME_REQUIRED,
  GroupBodySchema,
  GroupDevicesPutBodySchema,
  GroupUserDeleteBodySchema,
  GroupUserPutBodySchema,
  ID_LENGTHS,
  classifyId,
  isReservedPathSegment,
  newGroupId,
} from '../src/index';

describe('group ids', () => {
  it('are 11 uppercase letters or digits, classified as groups, never a reserved segment', () => {
    const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    let seed = 7;
    const source = (n: number) =>
      Array.from({ length: n }, () => chars[(seed = (seed * 31 + 11) % 9973) % chars.length]).join('');
    for (let i = 0; i < 50; i += 1) {
      const id = newGroupId(source);
      expect(id).toMatch(GROUP_ID_PATTERN);
      expect(id).toHaveLength(ID_LENGTHS.group);
      expect(classifyId(id)).toBe('group');
      expect(isReservedPathSegment(id)).toBe(false);
    }
  });

  it("draws again when the id would start with 'SQ' (a staff page)", () => {
    const answers = ['SQADMIN0001', 'AB12CD34EF5'];
    expect(newGroupId(() => answers.shift()!)).toBe('AB12CD34EF5');
  });

  it('refuses a source that does not give 11 uppercase letters or digits', () => {
    for (const bad of ['short', 'ab12cd34ef5', 'AB12CD34EF5X', 'AB12CD34-F5'])
      expect(() => newGroupId(() => bad)).toThrow(RangeError);
  });
});

describe('group contracts', () => {
  it('a group name is sanitised and required', () => {
    expect(GroupBodySchema.parse({ groupName: ' <Site> "A" ' })).toEqual({ groupName: 'Site A' });
    for (const groupName of ['', '  ', '<>?'])
      expect(GroupBodySchema.safeParse({ groupName }).error?.issues[0]?.message).toBe(GROUP_NAME_REQUIRED);
    expect(GroupBodySchema.safeParse({ groupName: 'x', more: 1 }).success).toBe(false);
  });

  it('the member calls name a member by targetUserID or an invitation by targetEmail', () => {
    expect(GroupUserPutBodySchema.safeParse({ targetPermission: 'USER' }).success).toBe(false);
    expect(GroupUserPutBodySchema.parse({ targetUserID: 'u1', targetPermission: 'USER' })).toEqual({
      targetUserID: 'u1',
      targetPermission: 'USER',
    });
    expect(GroupUserDeleteBodySchema.parse({ targetEmail: 'A@Example.com' })).toEqual({ targetEmail: 'a@example.com' });
    expect(GroupUserDeleteBodySchema.safeParse({}).success).toBe(false);
  });

  it('move or copy needs device ids, an 11-character target and the action', () => {
    const ok = { deviceList: ['AB12CD34E'], targetGroupid: 'AB12CD34EF5', action: 'move' };
    expect(GroupDevicesPutBodySchema.safeParse(ok).success).toBe(true);
    expect(GroupDevicesPutBodySchema.safeParse({ ...ok, deviceList: [] }).success).toBe(false);
    expect(GroupDevicesPutBodySchema.safeParse({ ...ok, targetGroupid: 'ab12cd34ef5' }).success).toBe(false);
    expect(GroupDevicesPutBodySchema.safeParse({ ...ok, action: 'swap' }).success).toBe(false);
  });
});
