/**
 * Virtual devices (issue 16, DESIGN.md section 5, ledger I-05) over real HTTP on PGlite: a script
 * with a read-write API key creates a device '0-' + 7 in one of its groups (the caller becomes
 * its ADMIN and its trial starts), feeds it by HTTP ingest with the device's own key, finds it in
 * its groups and the group's devices (what home shows) and in search, reads its data, and renames
 * it with PORTAL_deviceName; a stranger gets 404; the per-user cap answers 409.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_CREDENTIAL_MESSAGES,
  DEVICE_MESSAGES,
  VIRTUAL_DEVICES_MAX,
  VIRTUAL_DEVICE_ID_PATTERN,
  type ApiCredentialCreated,
  type GroupResponse,
  type GroupListEntry,
  type VirtualDeviceCreated,
} from '@portal/core';
import { type RequestOptions, type TestPortal, startTestPortal } from '../helpers';
import { type SignedInUser, expectError, signedInUser } from '../device-helpers';
import { postRecords } from '../ingest-helpers';

describe('virtual devices (pglite)', () => {
  let tp: TestPortal;
  let owner: SignedInUser;
  let key: ApiCredentialCreated;
  let groupid: string;

  const withKey = (options: RequestOptions = {}): RequestOptions => ({
    ...options,
    csrf: false,
    headers: { authorization: `Bearer ${key.key}`, ...options.headers },
  });
  const script = {
    get: (path: string) => tp.client().get(path, withKey()),
    post: (path: string, body?: unknown) => tp.client().post(path, body, withKey()),
    put: (path: string, body?: unknown) => tp.client().put(path, body, withKey()),
  };

  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false });
    owner = await signedInUser(tp);
    const res = await owner.client.post('/api/api-credentials', { name: 'script', access: 'read-write' });
    expect(res.status, res.text).toBe(201);
    key = res.body as ApiCredentialCreated;
    const group = await owner.client.post('/api/group', { groupName: 'Simulated' });
    expect(group.status, group.text).toBe(200);
    groupid = (group.body as { groupid: string }).groupid;
  });
  afterAll(async () => tp?.close());

  it('is created, fed by HTTP ingest, shown in its group and renamed, all through the API', async () => {
    const made = await script.post('/api/virtual-devices', { name: 'Tank sim', groupid });
    expect(made.status, made.text).toBe(201);
    const device = made.body as VirtualDeviceCreated;
    expect(device.deviceid).toMatch(VIRTUAL_DEVICE_ID_PATTERN);
    expect(device).toMatchObject({ name: 'Tank sim', model: 'ORB-C1', groupid });
    expect(device.deviceKey.length).toBeGreaterThan(20);

    const ts = Math.floor(tp.clock.now().getTime() / 1000) - 30;
    expect(await postRecords(tp, { id: device.deviceid, key: device.deviceKey }, [{ ts, level: 42.5 }])).toBe(200);
    expect(await postRecords(tp, { id: device.deviceid, key: 'wrong-key' }, [{ ts, level: 1 }])).toBe(401);

    const groups = (await script.get('/api/groups')).body as GroupListEntry[];
    expect(groups).toEqual([{ groupid, groupName: 'Simulated', permission: 'ADMIN', deviceCount: 1 }]);
    const group = (await script.get(`/api/group/${groupid}`)).body as GroupResponse;
    expect(Object.keys(group.deviceSummaries)).toEqual([device.deviceid]);
    expect(group.deviceSummaries[device.deviceid]!.name).toBe('Tank sim');
    const groupData = await script.get(`/api/group/${groupid}/data?keys=level`);
    expect(groupData.status, groupData.text).toBe(200);
    expect(groupData.text).toContain(device.deviceid);

    const data = await script.get(`/api/device/${device.deviceid}/data`);
    expect(data.status, data.text).toBe(200);
    expect((data.body as { data: Record<string, { v: unknown }[]> }).data.level?.map((p) => p.v)).toEqual([42.5]);

    const settings = await script.get(`/api/device/${device.deviceid}/settings`);
    expect(settings.status, settings.text).toBe(200);
    const record = (settings.body as { deviceSettings: { PORTAL_deviceName: string; tier: { name: string } } })
      .deviceSettings;
    expect(record.PORTAL_deviceName).toBe('Tank sim');
    expect(record.tier.name).not.toBe('PREMIUM');
    const permissions = await script.get(`/api/device/${device.deviceid}/permissions`);
    expect(permissions.status, permissions.text).toBe(200);
    expect(permissions.text).toContain('ADMIN');

    const renamed = await script.put(`/api/device/${device.deviceid}/settings`, { PORTAL_deviceName: 'Tank 4' });
    expect(renamed.status, renamed.text).toBe(200);
    expect((renamed.body as { deviceSettings: { PORTAL_deviceName: string } }).deviceSettings.PORTAL_deviceName).toBe(
      'Tank 4',
    );
    const after = (await owner.client.get(`/api/group/${groupid}`)).body as GroupResponse;
    expect(after.deviceSummaries[device.deviceid]!.name).toBe('Tank 4');
    const search = await owner.client.get(`/api/search?q=tank`);
    expect(search.text).toContain(device.deviceid);

    const stranger = await signedInUser(tp);
    expectError(
      await stranger.client.get(`/api/device/${device.deviceid}/data`),
      404,
      'NOT_FOUND',
      DEVICE_MESSAGES.notFound,
    );
    expectError(
      await stranger.client.put(`/api/device/${device.deviceid}/settings`, { PORTAL_deviceName: 'Mine' }),
      404,
      'NOT_FOUND',
    );
  });

  it('is created without a group by a session too, and refuses a group where the caller is not a member', async () => {
    const made = await owner.client.post('/api/virtual-devices', { name: 'Loose' });
    expect(made.status, made.text).toBe(201);
    expect((made.body as VirtualDeviceCreated).groupid).toBeNull();
    const other = await signedInUser(tp);
    const theirs = await other.client.post('/api/group', { groupName: 'Theirs' });
    const res = await script.post('/api/virtual-devices', {
      name: 'Sneaky',
      groupid: (theirs.body as { groupid: string }).groupid,
    });
    expect(res.status, res.text).toBe(404);
    expectError(await script.post('/api/virtual-devices', { name: '' }), 400, 'BAD_REQUEST');
    expectError(await script.post('/api/virtual-devices', { name: 'x', model: 'NOPE' }), 400, 'BAD_REQUEST');
  });

  it('answers 409 with a clear message past the per-user cap', async () => {
    const user = await signedInUser(tp);
    // The cap counts the devices a user created: fill it directly, then ask for one more.
    await tp.portal.db.query(
      `INSERT INTO devices (id, model, family, fw, key_hash, setup_password, created_at)
       SELECT '0-CAP' || lpad(n::text, 4, '0'), 'ORB-C1', 'ORB', 'SFW003-1.0.0', 'x', 'x', now()
         FROM generate_series(1, $1::int) AS n`,
      [VIRTUAL_DEVICES_MAX],
    );
    await tp.portal.db.query(
      `INSERT INTO virtual_devices (device_id, created_by, created_at)
       SELECT '0-CAP' || lpad(n::text, 4, '0'), $2, now() FROM generate_series(1, $1::int) AS n`,
      [VIRTUAL_DEVICES_MAX, user.id],
    );
    expectError(
      await user.client.post('/api/virtual-devices', { name: 'One more' }),
      409,
      'CONFLICT',
      API_CREDENTIAL_MESSAGES.tooManyVirtualDevices,
    );
  });
});
