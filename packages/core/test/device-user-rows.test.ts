/** The Users and Permissions page's rows (spec 2 sections 3 and 6; SUB-15..SUB-17; DESIGN.md section 5). */
import { describe, expect, it } from 'vitest';
import { deviceUserRows, type DeviceUserListEntry } from '../src/index';

const yard = { groupid: 'g1', groupName: 'Yard', permission: 'USER' as const };

describe('deviceUserRows', () => {
  it('keeps the direct role apart from the effective one and names the groups', () => {
    const rows = deviceUserRows([
      {
        userid: 'a',
        targetEmail: 'a@x.com',
        permission: 'ADMIN',
        direct: true,
        directPermission: 'ADMIN',
        groupAccess: [],
      },
      {
        userid: 'b',
        targetEmail: 'b@x.com',
        permission: 'USER',
        direct: true,
        directPermission: 'VIEW',
        groupAccess: [yard],
      },
      { userid: 'c', targetEmail: 'c@x.com', permission: 'USER', direct: false, groupAccess: [yard] },
    ]);
    expect(rows).toEqual([
      { userid: 'a', email: 'a@x.com', permission: 'ADMIN', direct: 'ADMIN', groups: [], lastAdmin: true },
      { userid: 'b', email: 'b@x.com', permission: 'USER', direct: 'VIEW', groups: [yard], lastAdmin: false },
      { userid: 'c', email: 'c@x.com', permission: 'USER', direct: null, groups: [yard], lastAdmin: false },
    ]);
  });

  it('counts only direct ADMIN grants: an ADMIN through a group does not protect the last direct one', () => {
    const rows = deviceUserRows([
      { userid: 'a', targetEmail: 'a@x.com', permission: 'ADMIN', directPermission: 'ADMIN', direct: true },
      {
        userid: 'g',
        targetEmail: 'g@x.com',
        permission: 'ADMIN',
        direct: false,
        groupAccess: [{ ...yard, permission: 'ADMIN' }],
      },
      // Effective ADMIN through the group, direct USER: not an ADMIN grant.
      { userid: 'u', targetEmail: 'u@x.com', permission: 'ADMIN', directPermission: 'USER', direct: true },
    ]);
    expect(rows.map((r) => [r.userid, r.lastAdmin])).toEqual([
      ['a', true],
      ['g', false],
      ['u', false],
    ]);
  });

  it('two direct ADMINs: neither is the last; a list without flattenGroups reads permission as the direct role', () => {
    const plain: DeviceUserListEntry[] = [
      { userid: 'a', targetEmail: 'a@x.com', permission: 'ADMIN' },
      { userid: 'b', targetEmail: 'b@x.com', permission: 'ADMIN' },
      { userid: 'v', targetEmail: 'v@x.com', permission: 'VIEW' },
    ];
    const rows = deviceUserRows(plain);
    expect(rows.map((r) => [r.direct, r.lastAdmin, r.groups])).toEqual([
      ['ADMIN', false, []],
      ['ADMIN', false, []],
      ['VIEW', false, []],
    ]);
    expect(deviceUserRows(plain.slice(1))[0]?.lastAdmin).toBe(true);
    expect(deviceUserRows([])).toEqual([]);
  });
});
