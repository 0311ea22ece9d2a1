/**
 * API credentials (issue 16; ledger API-46 to API-48, BRD-11; DESIGN.md sections 4 and 5) over real
 * HTTP on PGlite: a user's keys are listed without their secrets, created (the secret once, stored
 * hashed) and deleted; `Authorization: Bearer <key>` acts as the key's user with the same access
 * (a device it does not hold is 404, as for a session), needs no CSRF header and never sets or
 * reads a cookie; a read-only key is refused every write; a deleted or expired key is 401 at
 * once; keys never reach the credential, password, MFA or session calls; other brands refuse
 * them; a Basic device refuses them; each key has its own rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_CREDENTIALS_MAX,
  API_CREDENTIAL_MESSAGES,
  API_KEY_PATTERN,
  API_KEY_REQUESTS_PER_MINUTE,
  DAY_MS,
  DEVICE_MESSAGES,
  apiUnavailableMessage,
  type ApiCredential,
  type ApiCredentialCreated,
  type ApiCredentialsResponse,
} from '@portal/core';
import { sha256 } from '../../src/security';
import { type ApiClient, type ApiResponse, type RequestOptions, type TestPortal, startTestPortal } from '../helpers';
import { type RoleFixture, del, deviceWithRoles, expectError, provision, signedInUser } from '../device-helpers';

const KEYS = '/api/api-credentials';

describe('API credentials (pglite)', () => {
  let tp: TestPortal;
  let fx: RoleFixture;
  /** A device the ADMIN does not hold. */
  let otherDevice: string;
  const admin = () => fx.users.ADMIN;
  const deviceid = () => fx.device.deviceid;

  /** A client with no cookies that sends the key as a bearer token. */
  function bearer(key: string, extra: RequestOptions = {}) {
    const client = tp.client();
    const withKey = (options: RequestOptions = {}): RequestOptions => ({
      csrf: false,
      ...extra,
      ...options,
      headers: { authorization: `Bearer ${key}`, ...extra.headers, ...options.headers },
    });
    return {
      client,
      get: (path: string, options?: RequestOptions) => client.get(path, withKey(options)),
      post: (path: string, body?: unknown, options?: RequestOptions) => client.post(path, body, withKey(options)),
      put: (path: string, body?: unknown, options?: RequestOptions) => client.put(path, body, withKey(options)),
      delete: (path: string, options?: RequestOptions) => client.request('DELETE', path, withKey(options)),
    };
  }

  async function createKey(client: ApiClient, body: Record<string, unknown>): Promise<ApiCredentialCreated> {
    const res = await client.post(KEYS, body);
    expect(res.status, res.text).toBe(201);
    return res.body as ApiCredentialCreated;
  }

  const noCookies = (res: ApiResponse) => expect(res.setCookies, res.text).toEqual([]);

  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false });
    fx = await deviceWithRoles(tp);
    otherDevice = (await provision(tp)).deviceid;
  });
  afterAll(async () => tp?.close());

  describe('the calls (API-46 to API-48)', () => {
    it('creates a key whose secret is answered once and stored only as its hash, lists it without the secret, and deletes it', async () => {
      const user = await signedInUser(tp);
      const empty = await user.client.get(KEYS);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ credentials: [] });

      const created = await createKey(user.client, { name: '  Nightly export  ', access: 'read-only' });
      expect(created.key).toMatch(API_KEY_PATTERN);
      expect(created).toMatchObject({ name: 'Nightly export', access: 'read-only', expires: null, lastUsed: null });
      expect(created.key.startsWith(created.hint)).toBe(true);
      expect(created.hint).toHaveLength(8);

      const stored = await tp.portal.db.query<Record<string, unknown>>('SELECT * FROM api_credentials WHERE id = $1', [
        created.id,
      ]);
      expect(stored[0]!.key_hash).toBe(sha256(created.key));
      expect(JSON.stringify(stored)).not.toContain(created.key);

      const listed = (await user.client.get(KEYS)).body as ApiCredentialsResponse;
      const { key, ...withoutKey } = created;
      expect(listed.credentials).toEqual([withoutKey]);
      expect(JSON.stringify(listed)).not.toContain(key);

      const removed = await del(user.client, `${KEYS}/${created.id}`);
      expect(removed.status, removed.text).toBe(200);
      expect(removed.body).toEqual({ message: API_CREDENTIAL_MESSAGES.deleted });
      expect(((await user.client.get(KEYS)).body as ApiCredentialsResponse).credentials).toEqual([]);
      expectError(await del(user.client, `${KEYS}/${created.id}`), 404, 'NOT_FOUND', API_CREDENTIAL_MESSAGES.notFound);
    });

    it("refuses bad bodies, a past or far expiry, another user's key and more than the cap", async () => {
      const user = await signedInUser(tp);
      const now = Math.floor(tp.clock.now().getTime() / 1000);
      expectError(await user.client.post(KEYS, { name: ' ', access: 'read-only' }), 400, 'BAD_REQUEST');
      expectError(await user.client.post(KEYS, { name: 'x', access: 'admin' }), 400, 'BAD_REQUEST');
      expectError(await user.client.post(KEYS, { name: 'x', access: 'read-only', extra: 1 }), 400, 'BAD_REQUEST');
      expectError(
        await user.client.post(KEYS, { name: 'x', access: 'read-only', expiresAt: now - 1 }),
        400,
        'BAD_REQUEST',
        API_CREDENTIAL_MESSAGES.expiryPast,
      );
      expectError(
        await user.client.post(KEYS, { name: 'x', access: 'read-only', expiresAt: now + 6 * 366 * 86_400 }),
        400,
        'BAD_REQUEST',
        API_CREDENTIAL_MESSAGES.expiryTooFar,
      );
      const theirs = await createKey(admin().client, { name: 'theirs', access: 'read-only' });
      expectError(await del(user.client, `${KEYS}/${theirs.id}`), 404, 'NOT_FOUND');
      for (let i = 0; i < API_CREDENTIALS_MAX; i += 1)
        await createKey(user.client, { name: `k${i}`, access: 'read-only' });
      expectError(
        await user.client.post(KEYS, { name: 'one more', access: 'read-only' }),
        409,
        'CONFLICT',
        API_CREDENTIAL_MESSAGES.tooMany,
      );
      expectError(await tp.client().get(KEYS), 401, 'UNAUTHENTICATED');
    });
  });

  describe('Authorization: Bearer', () => {
    let readOnly: ApiCredentialCreated;
    let readWrite: ApiCredentialCreated;

    beforeAll(async () => {
      readOnly = await createKey(admin().client, { name: 'reader', access: 'read-only' });
      readWrite = await createKey(admin().client, { name: 'writer', access: 'read-write' });
    });

    it("reads the user's device as a session does, and a device it does not hold is 404", async () => {
      const key = bearer(readOnly.key);
      const data = await key.get(`/api/device/${deviceid()}/data`);
      expect(data.status, data.text).toBe(200);
      expect((data.body as { deviceid: string }).deviceid).toBe(deviceid());
      noCookies(data);
      const settings = await key.get(`/api/device/${deviceid()}/settings`);
      expect(settings.status, settings.text).toBe(200);
      expect((settings.body as { deviceSettings: { role?: string } }).deviceSettings).toBeDefined();
      expectError(await key.get(`/api/device/${otherDevice}/data`), 404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
      expectError(await key.get('/api/device/NOSUCHDEV/data'), 404, 'NOT_FOUND', DEVICE_MESSAGES.notFound);
      // The VIEW user's key can read but not do what VIEW may not.
      const viewKey = await createKey(fx.users.VIEW.client, { name: 'viewer', access: 'read-write' });
      expectError(await bearer(viewKey.key).post(`/api/device/${deviceid()}/passwords`, {}), 403, 'FORBIDDEN');
    });

    it('records the last use, at most once a minute', async () => {
      const key = await createKey(admin().client, { name: 'timed', access: 'read-only' });
      const lastUsed = async () =>
        ((await admin().client.get(KEYS)).body as ApiCredentialsResponse).credentials.find((c) => c.id === key.id)!
          .lastUsed;
      expect(await lastUsed()).toBeNull();
      expect((await bearer(key.key).get('/api/groups')).status).toBe(200);
      const first = await lastUsed();
      expect(first).toBeCloseTo(tp.clock.now().getTime() / 1000, -1);
      tp.clock.advance(30_000);
      await bearer(key.key).get('/api/groups');
      expect(await lastUsed()).toBe(first);
      tp.clock.advance(31_000);
      await bearer(key.key).get('/api/groups');
      expect(await lastUsed()).toBeGreaterThanOrEqual(first! + 60);
    });

    it('refuses a read-only key every call but GET, and a read-write key needs no CSRF header', async () => {
      const reader = bearer(readOnly.key);
      const rename = { PORTAL_deviceNotes: { description: 'from a script' } };
      expectError(
        await reader.put(`/api/device/${deviceid()}/settings`, rename),
        403,
        'FORBIDDEN',
        API_CREDENTIAL_MESSAGES.readOnly,
      );
      expectError(
        await reader.post('/api/virtual-devices', { name: 'Sim' }),
        403,
        'FORBIDDEN',
        API_CREDENTIAL_MESSAGES.readOnly,
      );
      expectError(
        await reader.post('/api/group', { groupName: 'G' }),
        403,
        'FORBIDDEN',
        API_CREDENTIAL_MESSAGES.readOnly,
      );
      expectError(
        await reader.delete(`/api/device/${deviceid()}/user`),
        403,
        'FORBIDDEN',
        API_CREDENTIAL_MESSAGES.readOnly,
      );

      const writer = bearer(readWrite.key);
      const put = await writer.put(`/api/device/${deviceid()}/settings`, rename);
      expect(put.status, put.text).toBe(200);
      noCookies(put);
      const notes = (put.body as { deviceSettings: { PORTAL_deviceNotes: { description?: string } } }).deviceSettings;
      expect(notes.PORTAL_deviceNotes.description).toBe('from a script');
      // A session without the header is still refused (the CSRF guard is unchanged for cookies).
      expectError(await admin().client.put(`/api/device/${deviceid()}/settings`, rename, { csrf: false }), 403, 'CSRF');
    });

    it('never reaches the credential, password, MFA or session calls', async () => {
      const writer = bearer(readWrite.key);
      const refusals = [
        await writer.get(KEYS),
        await writer.post(KEYS, { name: 'more', access: 'read-write' }),
        await writer.delete(`${KEYS}/${readOnly.id}`),
        await writer.post('/api/account/password', {
          currentPassword: admin().password,
          newPassword: 'another-pass-1',
        }),
        await writer.post('/api/account/mfa/totp/setup'),
        await writer.post('/api/account/mfa/disable', { code: '123456' }),
        await writer.get('/api/auth/session'),
        await writer.post('/api/auth/logout'),
        await writer.post('/api/auth/login', { email: admin().email, password: admin().password }),
      ];
      for (const res of refusals) {
        expectError(res, 403, 'FORBIDDEN', API_CREDENTIAL_MESSAGES.sessionOnly);
        noCookies(res);
      }
      // Nothing changed: both keys still listed, the password still signs in.
      expect(((await admin().client.get(KEYS)).body as ApiCredentialsResponse).credentials.map((c) => c.id)).toEqual(
        expect.arrayContaining([readOnly.id, readWrite.id]),
      );
      const login = await tp.client().post('/api/auth/login', { email: admin().email, password: admin().password });
      expect(login.status).toBe(200);
    });

    it('ignores a session cookie sent with a key (the key wins) and sets no cookie', async () => {
      // The stranger's session with the ADMIN's key: the ADMIN's device.
      const stranger = fx.users.STRANGER.client;
      const asAdmin = await stranger.get(`/api/device/${deviceid()}/data`, {
        headers: { authorization: `Bearer ${readOnly.key}` },
      });
      expect(asAdmin.status, asAdmin.text).toBe(200);
      noCookies(asAdmin);
      // The ADMIN's session with the stranger's key: a device the stranger does not hold.
      const strangerKey = await createKey(stranger, { name: 'stranger', access: 'read-write' });
      expectError(
        await admin().client.get(`/api/device/${deviceid()}/data`, {
          headers: { authorization: `Bearer ${strangerKey.key}` },
        }),
        404,
        'NOT_FOUND',
      );
      // A malformed bearer header with a live session is no session either.
      expectError(
        await admin().client.get(`/api/device/${deviceid()}/data`, { headers: { authorization: 'Bearer' } }),
        401,
        'UNAUTHENTICATED',
        API_CREDENTIAL_MESSAGES.invalidKey,
      );
    });

    it('stops a deleted key at once, and an expired key is 401', async () => {
      const doomed = await createKey(admin().client, { name: 'doomed', access: 'read-only' });
      expect((await bearer(doomed.key).get(`/api/device/${deviceid()}/data`)).status).toBe(200);
      expect((await del(admin().client, `${KEYS}/${doomed.id}`)).status).toBe(200);
      expectError(
        await bearer(doomed.key).get(`/api/device/${deviceid()}/data`),
        401,
        'UNAUTHENTICATED',
        API_CREDENTIAL_MESSAGES.invalidKey,
      );

      const now = Math.floor(tp.clock.now().getTime() / 1000);
      const brief = await createKey(admin().client, { name: 'brief', access: 'read-only', expiresAt: now + 120 });
      expect(brief.expires).toBe(now + 120);
      expect((await bearer(brief.key).get('/api/groups')).status).toBe(200);
      tp.clock.advance(121_000);
      try {
        expectError(
          await bearer(brief.key).get('/api/groups'),
          401,
          'UNAUTHENTICATED',
          API_CREDENTIAL_MESSAGES.invalidKey,
        );
        const listed = ((await admin().client.get(KEYS)).body as ApiCredentialsResponse).credentials;
        expect(listed.find((c: ApiCredential) => c.id === brief.id)?.expires).toBe(now + 120);
      } finally {
        tp.clock.advance(-121_000);
      }
      expectError(await bearer('ppk_not-a-key').get('/api/groups'), 401, 'UNAUTHENTICATED');
      expectError(await bearer(`ppk_${'A'.repeat(43)}`).get('/api/groups'), 401, 'UNAUTHENTICATED');
    });

    it('is refused on other brands, where the credential calls are refused too', async () => {
      const onTank = bearer(readOnly.key, { host: `tank.localhost:${tp.port}` });
      expectError(await onTank.get('/api/groups'), 403, 'FORBIDDEN', API_CREDENTIAL_MESSAGES.brandUnavailable);
      expectError(
        await admin().client.get(KEYS, { host: `tank.localhost:${tp.port}` }),
        403,
        'FORBIDDEN',
        API_CREDENTIAL_MESSAGES.brandUnavailable,
      );
      expectError(
        await admin().client.post(KEYS, { name: 'tank', access: 'read-only' }, { host: `tank.localhost:${tp.port}` }),
        403,
        'FORBIDDEN',
      );
      // The default brand's host still works.
      expect((await bearer(readOnly.key, { host: `localhost:${tp.port}` }).get('/api/groups')).status).toBe(200);
    });

    it('refuses a device whose plan has no API (Basic), while the session still reads it', async () => {
      const basic = await deviceWithRoles(tp);
      const key = await createKey(basic.users.ADMIN.client, { name: 'basic', access: 'read-only' });
      const addedTs = (tp.clock.now().getTime() - 100 * DAY_MS) / 1000;
      await tp.portal.db.query('UPDATE devices SET added_ts = $2 WHERE id = $1', [basic.device.deviceid, addedTs]);
      expectError(
        await bearer(key.key).get(`/api/device/${basic.device.deviceid}/data`),
        403,
        'FORBIDDEN',
        apiUnavailableMessage('Basic'),
      );
      expect(apiUnavailableMessage('Basic')).toBe('The API is unavailable on the Basic Plan');
      expect((await basic.users.ADMIN.client.get(`/api/device/${basic.device.deviceid}/data`)).status).toBe(200);
      // A stranger's key still gets 404 for it, not the plan's answer.
      expectError(await bearer(readOnly.key).get(`/api/device/${basic.device.deviceid}/data`), 404, 'NOT_FOUND');
    });

    it('limits each key on its own (429), leaving other keys and the session alone', async () => {
      const busy = await createKey(admin().client, { name: 'busy', access: 'read-only' });
      const client = bearer(busy.key);
      let status = 200;
      for (let i = 0; i < API_KEY_REQUESTS_PER_MINUTE && status === 200; i += 1) {
        status = (await client.get('/api/groups')).status;
      }
      expect(status).toBe(200);
      const over = await client.get('/api/groups');
      expectError(over, 429, 'RATE_LIMITED', API_CREDENTIAL_MESSAGES.tooManyRequests);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect((await bearer(readOnly.key).get('/api/groups')).status).toBe(200);
      expect((await admin().client.get('/api/groups')).status).toBe(200);
    });

    it('documents the bearer scheme beside the session on the calls it opens', async () => {
      const doc = (await tp.client().get('/api/openapi.json')).body as {
        components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
        paths: Record<
          string,
          Record<string, { security: Record<string, unknown>[]; responses: Record<string, unknown> }>
        >;
        info: { description: string };
      };
      expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
      const data = doc.paths['/api/device/{id}/data']!.get!;
      expect(data.security).toEqual([{ session: [] }, { apiKey: [] }]);
      expect(Object.keys(data.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
      expect(doc.paths['/api/api-credentials']!.get!.security).toEqual([{ session: [] }]);
      expect(doc.paths['/api/account/password']!.post!.security).toEqual([{ session: [] }]);
      expect(doc.paths['/api/ingest/{id}']!.post!.security).toEqual([{ deviceKey: [] }]);
      expect(doc.info.description).toContain('Authorization: Bearer');
      expect(doc.info.description).toMatch(/curl -H "Authorization: Bearer/);
    });
  });
});
