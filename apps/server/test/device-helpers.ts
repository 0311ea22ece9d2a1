/** Device test factories: provision through the staff API, claim, and a device with one user per role. */
import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import type { DeviceModel, DeviceRole, UserGroup } from '@portal/core';
import { type ApiClient, type ApiResponse, type MadeUser, type TestPortal, makeUser, signedIn } from './helpers';

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A random, well-formed device id (9 uppercase letters or digits). */
export function randomDeviceId(prefix = 'T'): string {
  let id = prefix;
  while (id.length < 9) id += ID_CHARS[randomInt(ID_CHARS.length)];
  return id;
}

export interface Provisioned {
  deviceid: string;
  model: DeviceModel;
  fw: string;
  setupPassword: string;
  deviceKey: string;
}

export interface SignedInUser extends MadeUser {
  client: ApiClient;
}

export async function signedInUser(tp: TestPortal, userGroups: UserGroup[] = []): Promise<SignedInUser> {
  const user = await makeUser(tp, { userGroups });
  return { ...user, client: await signedIn(tp, user) };
}

let staff: Promise<SignedInUser> | undefined;
let staffPortal: TestPortal | undefined;

/** A provisioning_account user of this portal (made once per portal). */
/** A group's members at each level (its ADMIN given, the others shared by e-mail) and a stranger. */
export type GroupMembers = Record<DeviceRole | 'STRANGER', SignedInUser>;

/** Shares the group by e-mail with a new user at each of USER, OPERATOR and VIEW, and makes a stranger. */
export async function shareWithEachLevel(tp: TestPortal, admin: SignedInUser, groupid: string): Promise<GroupMembers> {
  const members = { ADMIN: admin } as GroupMembers;
  for (const level of ['USER', 'OPERATOR', 'VIEW'] as const) {
    const user = await signedInUser(tp);
    const res = await admin.client.post(`/api/group/${groupid}/user`, {
      targetEmail: user.email,
      targetPermission: level,
    });
    expect(res.status, res.text).toBe(200);
    members[level] = user;
  }
  members.STRANGER = await signedInUser(tp);
  return members;
}

export function provisioningStaff(tp: TestPortal): Promise<SignedInUser> {
  if (staffPortal !== tp) {
    staffPortal = tp;
    staff = signedInUser(tp, ['provisioning_account']);
  }
  return staff!;
}

/** Provisions a device through POST /api/prov-portal-edit-device/{id}. */
export async function provision(
  tp: TestPortal,
  model: DeviceModel = 'ORB-C1',
  id = randomDeviceId(),
): Promise<Provisioned> {
  const { client } = await provisioningStaff(tp);
  const res = await client.post(`/api/prov-portal-edit-device/${id}`, { model });
  expect(res.status, res.text).toBe(201);
  return res.body as Provisioned;
}

/** POST /api/device/{id}/user with the setup password. */
export function claim(client: ApiClient, deviceid: string, setupPassword: string | undefined): Promise<ApiResponse> {
  return client.post(`/api/device/${deviceid}/user`, setupPassword === undefined ? {} : { setupPassword });
}

export function del(client: ApiClient, path: string, body?: unknown): Promise<ApiResponse> {
  return client.request('DELETE', path, body === undefined ? {} : { body });
}

export interface RoleFixture {
  device: Provisioned;
  users: Record<DeviceRole | 'STRANGER', SignedInUser>;
}

/** A claimed device with one user per role (ADMIN claimed it; the others were granted) and a stranger. */
export async function deviceWithRoles(
  tp: TestPortal,
  options: { adminGroups?: UserGroup[] } = {},
): Promise<RoleFixture> {
  const device = await provision(tp);
  const admin = await signedInUser(tp, options.adminGroups ?? []);
  const res = await claim(admin.client, device.deviceid, device.setupPassword);
  expect(res.status, res.text).toBe(200);
  const users = { ADMIN: admin } as RoleFixture['users'];
  for (const role of ['USER', 'OPERATOR', 'VIEW'] as const) {
    const user = await signedInUser(tp);
    const grant = await admin.client.post(`/api/device/${device.deviceid}/user`, {
      targetEmail: user.email,
      targetPermission: role,
    });
    expect(grant.status, grant.text).toBe(200);
    users[role] = user;
  }
  users.STRANGER = await signedInUser(tp);
  return { device, users };
}

/** Asserts an error answer: status, code and (optionally) message, and nothing else in the body. */
export function expectError(res: ApiResponse, status: number, code: string, message?: string | RegExp): void {
  expect({ status: res.status, code: (res.body as { code?: string } | undefined)?.code }, res.text).toEqual({
    status,
    code,
  });
  const body = res.body as { message: string };
  expect(Object.keys(body).sort()).toEqual(['code', 'message']);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
}
