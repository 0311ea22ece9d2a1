/**
 * The HTTP hooks an external broker calls (issue 17), over real HTTP against the portal main
 * starts, on PGlite, each called as its broker calls it: mosquitto-go-auth's http backend with
 * form bodies and the secret in the query, EMQX 5 with JSON and the secret in a header, VerneMQ's
 * webhooks with JSON, the `vernemq-hook` header and the secret in the query. A device connects
 * with its own key and client id and reaches only its own topics; the portal's broker user is the
 * only superuser; a call without the secret is 401, and without MQTT_AUTH_HOOK_SECRET the hooks
 * do not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { portalBrokerUser } from '../../src/modules/mqtt-auth/mqtt-auth.service';
import { type ApiResponse, type TestPortal, quietTestConfig, startPortalForTest } from '../helpers';
import { type Provisioned, provision, randomDeviceId } from '../device-helpers';

const SECRET = 'hook-secret-0123456789abcdef';
const PORTAL_USER = { username: 'portal', password: 'portal-password-1' };
const HOOKS = '/api/mqtt-auth';

/** Every hook, as [method, document path]. */
const HOOK_ROUTES = [
  ['post', `${HOOKS}/go-auth/user`],
  ['post', `${HOOKS}/go-auth/superuser`],
  ['post', `${HOOKS}/go-auth/acl`],
  ['post', `${HOOKS}/emqx/authenticate`],
  ['post', `${HOOKS}/emqx/authorize`],
  ['post', `${HOOKS}/vernemq/auth_on_register`],
  ['post', `${HOOKS}/vernemq/auth_on_publish`],
  ['post', `${HOOKS}/vernemq/auth_on_subscribe`],
] as const;

const GO_AUTH_ALLOWED = { ok: true, error: '' };
const VERNEMQ_OK = { result: 'ok' };
const VERNEMQ_NOT_ALLOWED = { result: { error: 'not_allowed' } };

describe('broker HTTP hooks (pglite)', () => {
  let tp: TestPortal;
  let a: Provisioned;
  let b: Provisioned;
  const A = () => a.deviceid;
  const B = () => b.deviceid;

  beforeAll(async () => {
    // A request limit of 2 a minute, which the hooks must not be subject to; request logs on.
    const config = quietTestConfig({ MQTT_AUTH_HOOK_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '2', LOG_LEVEL: 'info' });
    tp = await startPortalForTest(config, { mqttAuthHooks: { secret: SECRET, portalUser: PORTAL_USER } });
    a = await provision(tp);
    b = await provision(tp);
  });
  afterAll(async () => {
    await tp?.close();
  });

  const query = (secret: string | null) => (secret === null ? '' : `?secret=${encodeURIComponent(secret)}`);

  /** mosquitto-go-auth with http_params_mode form: the fields as a form, the secret in the URI. */
  function goAuth(
    check: 'user' | 'superuser' | 'acl',
    fields: Record<string, string | number>,
    secret: string | null = SECRET,
  ) {
    const form = new URLSearchParams(
      Object.entries(fields).map(([name, value]): [string, string] => [name, String(value)]),
    );
    return tp.client().post(`${HOOKS}/go-auth/${check}${query(secret)}`, undefined, {
      rawBody: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
      csrf: false,
    });
  }

  /** EMQX 5: the JSON of the README's body templates, the secret in a configured header. */
  function emqx(
    hook: 'authenticate' | 'authorize',
    body: unknown,
    headers: Record<string, string> = { 'x-portal-hook-secret': SECRET },
  ) {
    return tp.client().post(`${HOOKS}/emqx/${hook}`, body, { csrf: false, headers });
  }

  /** VerneMQ's webhooks: JSON, the hook named in `vernemq-hook`, the secret in the endpoint's query. */
  function vernemq(hook: string, body: unknown, secret: string | null = SECRET, header = hook) {
    return tp.client().post(`${HOOKS}/vernemq/${hook}${query(secret)}`, body, {
      csrf: false,
      headers: { 'vernemq-hook': header },
    });
  }

  const goAuthAllows = async (check: 'user' | 'superuser' | 'acl', fields: Record<string, string | number>) => {
    const res = await goAuth(check, fields);
    if (res.status === 200) expect(res.body).toEqual(GO_AUTH_ALLOWED);
    else
      expect({ status: res.status, code: (res.body as { code?: string }).code }).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
    return res.status === 200;
  };

  describe('mosquitto-go-auth', () => {
    it('lets a device connect with its key and its own client id, and nobody else', async () => {
      const user = (username: string, password: string, clientid: string) =>
        goAuthAllows('user', { username, password, clientid });
      expect(await user(A(), a.deviceKey, A())).toBe(true);
      expect(await user(A(), a.deviceKey, `${A()}-tool-1`)).toBe(true);
      expect(await user(A(), 'not-the-key', A())).toBe(false);
      expect(await user(A(), '', A())).toBe(false);
      expect(await user(A(), b.deviceKey, A())).toBe(false);
      expect(await user(A(), a.deviceKey, B())).toBe(false);
      expect(await user(A(), a.deviceKey, `${B()}-${A()}`)).toBe(false);
      expect(await user(A(), a.deviceKey, '')).toBe(false);
      expect(await user(B(), a.deviceKey, B())).toBe(false);
      expect(await user(randomDeviceId('Z'), a.deviceKey, A())).toBe(false);
      expect(await user(A().toLowerCase(), a.deviceKey, A().toLowerCase())).toBe(false);
      expect(await user('__proto__', a.deviceKey, '__proto__')).toBe(false);
      // No key at all: the form without a password field.
      expect((await goAuth('user', { username: A(), clientid: A() })).status).toBe(400);
    });

    it('takes the same check as JSON (http_params_mode json, go-auth’s default)', async () => {
      const res = await tp
        .client()
        .post(
          `${HOOKS}/go-auth/user${query(SECRET)}`,
          { username: A(), password: a.deviceKey, clientid: A() },
          { csrf: false },
        );
      expect(res.status, res.text).toBe(200);
      const acl = await tp
        .client()
        .post(
          `${HOOKS}/go-auth/acl${query(SECRET)}`,
          { username: A(), clientid: A(), topic: `dev/${A()}/data`, acc: 2 },
          { csrf: false },
        );
      expect(acl.status, acl.text).toBe(200);
    });

    it('lets the portal user in with its password only, and only it is a superuser', async () => {
      expect(
        await goAuthAllows('user', { username: 'portal', password: PORTAL_USER.password, clientid: 'portal-ab12-0' }),
      ).toBe(true);
      expect(
        await goAuthAllows('user', { username: 'portal', password: 'portal-password-2', clientid: 'portal-ab12-0' }),
      ).toBe(false);
      expect(await goAuthAllows('user', { username: 'portal', password: '', clientid: 'portal' })).toBe(false);
      expect(await goAuthAllows('superuser', { username: 'portal' })).toBe(true);
      for (const username of [A(), 'Portal', 'portal ', '', 'admin', '__proto__']) {
        expect(await goAuthAllows('superuser', { username }), username).toBe(false);
      }
    });

    it('lets a device publish to its own data, diag and ack, subscribe to and receive its own cmd, nothing else', async () => {
      const acl = (topic: string, acc: number, clientid = A()) =>
        goAuthAllows('acl', { username: A(), clientid, topic, acc });
      for (const kind of ['data', 'diag', 'ack']) expect(await acl(`dev/${A()}/${kind}`, 2), kind).toBe(true);
      expect(await acl(`dev/${A()}/cmd`, 4)).toBe(true);
      expect(await acl(`dev/${A()}/cmd`, 1)).toBe(true);
      expect(await acl(`dev/${A()}/data`, 2, `${A()}-tool`)).toBe(true);
      const refused: [string, number][] = [
        [`dev/${B()}/data`, 2],
        [`dev/${A()}/cmd`, 2],
        [`dev/${A()}/cmd`, 3],
        [`dev/${A()}/data`, 4],
        [`dev/${A()}/data`, 1],
        [`dev/${A()}/other`, 2],
        [`dev/${A()}/data/more`, 2],
        [`dev/${B()}/cmd`, 4],
        [`dev/${B()}/cmd`, 1],
        ['dev/+/cmd', 4],
        [`dev/${A()}/#`, 4],
        ['#', 4],
        ['$SYS/#', 4],
        ['$SYS/broker/clients', 1],
        [`$share/g/dev/${A()}/cmd`, 4],
        [`/dev/${A()}/data`, 2],
      ];
      for (const [topic, acc] of refused) expect(await acl(topic, acc), `${topic} acc ${acc}`).toBe(false);
      // Its key is not asked again, but its client id is: another device's is refused.
      expect(await acl(`dev/${A()}/data`, 2, B())).toBe(false);
      expect(await acl(`dev/${A()}/data`, 2, '')).toBe(false);
      expect(
        await goAuthAllows('acl', { username: randomDeviceId('Z'), clientid: 'x', topic: 'dev/x/data', acc: 2 }),
      ).toBe(false);
    });

    it('lets the portal user subscribe to the shared device topics, receive them and publish commands', async () => {
      const acl = (topic: string, acc: number) =>
        goAuthAllows('acl', { username: 'portal', clientid: 'portal-ab12-3', topic, acc });
      for (const kind of ['data', 'diag', 'ack']) {
        expect(await acl(`$share/portal/dev/+/${kind}`, 4)).toBe(true);
        expect(await acl(`dev/+/${kind}`, 4)).toBe(true);
        expect(await acl(`dev/${A()}/${kind}`, 1)).toBe(true);
      }
      expect(await acl(`dev/${A()}/cmd`, 2)).toBe(true);
      for (const [topic, acc] of [
        ['#', 4],
        ['dev/#', 4],
        ['dev/+/cmd', 4],
        ['dev/+/cmd', 2],
        [`dev/${A()}/data`, 2],
        ['$SYS/#', 4],
        ['$share/portal/dev/#', 4],
      ] as const) {
        expect(await acl(topic, acc), `${topic} acc ${acc}`).toBe(false);
      }
    });

    it('refuses a malformed check (400, a refusal to go-auth) and an access code it does not know', async () => {
      for (const fields of [
        { username: A(), clientid: A(), topic: `dev/${A()}/data`, acc: 8 },
        { username: A(), clientid: A(), topic: `dev/${A()}/data`, acc: 'write' },
        { username: A(), clientid: A(), topic: '', acc: 2 },
        { username: 'x'.repeat(300), clientid: A(), topic: `dev/${A()}/data`, acc: 2 },
        { username: A(), clientid: A(), topic: `dev/${A()}/${'x'.repeat(2000)}`, acc: 2 },
      ]) {
        const res = await goAuth('acl', fields);
        expect(res.status, JSON.stringify(fields)).toBe(400);
        expect(res.text).not.toContain(a.deviceKey);
      }
      // A field given twice is refused, not guessed at.
      const twice = await tp.client().post(`${HOOKS}/go-auth/user${query(SECRET)}`, undefined, {
        rawBody: `username=${B()}&username=${A()}&password=${encodeURIComponent(a.deviceKey)}&clientid=${A()}`,
        contentType: 'application/x-www-form-urlencoded',
        csrf: false,
      });
      expect(twice.status).toBe(400);
    });
  });

  describe('EMQX 5', () => {
    it('authenticates a device (not a superuser) and the portal user (the superuser); anyone else is denied', async () => {
      const authenticate = async (username: string, password: string, clientid: string) => {
        const res = await emqx('authenticate', { username, password, clientid });
        expect(res.status, res.text).toBe(200);
        return res.body;
      };
      expect(await authenticate(A(), a.deviceKey, A())).toEqual({ result: 'allow', is_superuser: false });
      expect(await authenticate('portal', PORTAL_USER.password, 'portal-x-1')).toEqual({
        result: 'allow',
        is_superuser: true,
      });
      const deny = { result: 'deny', is_superuser: false };
      expect(await authenticate('portal', a.deviceKey, 'portal-x-1')).toEqual(deny);
      expect(await authenticate(A(), b.deviceKey, A())).toEqual(deny);
      expect(await authenticate(A(), '', A())).toEqual(deny);
      expect(await authenticate(A(), a.deviceKey, B())).toEqual(deny);
      expect(await authenticate(randomDeviceId('Z'), a.deviceKey, A())).toEqual(deny);
    });

    it('answers a body its template did not fill as expected with 200 deny (a 400 would be "ignore" to EMQX)', async () => {
      for (const body of [
        {},
        { username: A(), password: a.deviceKey },
        { username: A(), password: 42, clientid: A() },
        { username: A(), password: 'x'.repeat(2000), clientid: A() },
        { username: A(), password: `${a.deviceKey}\u0000`, clientid: A() },
      ]) {
        const res = await emqx('authenticate', body);
        expect({ status: res.status, body: res.body }, JSON.stringify(body)).toEqual({
          status: 200,
          body: { result: 'deny', is_superuser: false },
        });
      }
      const res = await emqx('authorize', { username: A(), clientid: A(), topic: `dev/${A()}/data`, action: 'all' });
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { result: 'deny' } });
    });

    it('authorises a device on its own topics only, and the portal on the shared subscriptions and commands', async () => {
      const authorize = async (username: string, clientid: string, action: string, topic: string) => {
        const res = await emqx('authorize', { username, clientid, topic, action });
        expect(res.status, res.text).toBe(200);
        return (res.body as { result: string }).result;
      };
      for (const kind of ['data', 'diag', 'ack'])
        expect(await authorize(A(), A(), 'publish', `dev/${A()}/${kind}`)).toBe('allow');
      expect(await authorize(A(), A(), 'subscribe', `dev/${A()}/cmd`)).toBe('allow');
      for (const [action, topic] of [
        ['publish', `dev/${B()}/data`],
        ['publish', `dev/${A()}/cmd`],
        ['subscribe', `dev/${B()}/cmd`],
        ['subscribe', 'dev/+/cmd'],
        ['subscribe', '#'],
        ['subscribe', '$SYS/#'],
      ]) {
        expect(await authorize(A(), A(), action!, topic!), `${action} ${topic}`).toBe('deny');
      }
      expect(await authorize(A(), B(), 'publish', `dev/${A()}/data`)).toBe('deny');
      expect(await authorize('portal', 'portal-x-0', 'subscribe', '$share/portal/dev/+/data')).toBe('allow');
      expect(await authorize('portal', 'portal-x-0', 'publish', `dev/${B()}/cmd`)).toBe('allow');
      expect(await authorize('portal', 'portal-x-0', 'subscribe', '#')).toBe('deny');
    });
  });

  describe('VerneMQ webhooks', () => {
    const register = (username: string | null, password: string | null, client_id: string) =>
      vernemq('auth_on_register', {
        peer_addr: '127.0.0.1',
        peer_port: 53012,
        username,
        password,
        mountpoint: '',
        client_id,
        clean_session: true,
      });

    it('auth_on_register: a device with its key and own client id, the portal user with its password', async () => {
      const answer = async (res: Promise<ApiResponse>) => {
        const got = await res;
        expect(got.status, got.text).toBe(200);
        return got.body;
      };
      expect(await answer(register(A(), a.deviceKey, A()))).toEqual(VERNEMQ_OK);
      expect(await answer(register(A(), a.deviceKey, `${A()}-2`))).toEqual(VERNEMQ_OK);
      expect(await answer(register('portal', PORTAL_USER.password, 'portal-x-0'))).toEqual(VERNEMQ_OK);
      expect(await answer(register(A(), b.deviceKey, A()))).toEqual(VERNEMQ_NOT_ALLOWED);
      expect(await answer(register(A(), null, A()))).toEqual(VERNEMQ_NOT_ALLOWED);
      expect(await answer(register(null, null, A()))).toEqual(VERNEMQ_NOT_ALLOWED);
      expect(await answer(register(A(), a.deviceKey, B()))).toEqual(VERNEMQ_NOT_ALLOWED);
      expect(await answer(register('portal', null, 'portal-x-0'))).toEqual(VERNEMQ_NOT_ALLOWED);
    });

    it('auth_on_publish: a device to its own data, diag and ack only', async () => {
      const publish = async (username: string | null, client_id: string, topic: string) => {
        const res = await vernemq('auth_on_publish', {
          username,
          client_id,
          mountpoint: '',
          qos: 1,
          topic,
          payload: Buffer.from('{"ts":1}').toString('base64'),
          retain: false,
        });
        expect(res.status, res.text).toBe(200);
        return res.body;
      };
      for (const kind of ['data', 'diag', 'ack'])
        expect(await publish(A(), A(), `dev/${A()}/${kind}`)).toEqual(VERNEMQ_OK);
      expect(await publish(A(), A(), `dev/${B()}/data`)).toEqual(VERNEMQ_NOT_ALLOWED);
      expect(await publish(A(), A(), `dev/${A()}/cmd`)).toEqual(VERNEMQ_NOT_ALLOWED);
      expect(await publish(A(), B(), `dev/${A()}/data`)).toEqual(VERNEMQ_NOT_ALLOWED);
      expect(await publish(null, A(), `dev/${A()}/data`)).toEqual(VERNEMQ_NOT_ALLOWED);
      expect(await publish('portal', 'portal-x-0', `dev/${A()}/cmd`)).toEqual(VERNEMQ_OK);
      // A payload of a large record still fits (base64 of 200 kB).
      const big = await vernemq('auth_on_publish', {
        username: A(),
        client_id: A(),
        mountpoint: '',
        qos: 1,
        topic: `dev/${A()}/data`,
        payload: Buffer.alloc(200 * 1024, 7).toString('base64'),
        retain: false,
      });
      expect({ status: big.status, body: big.body }).toEqual({ status: 200, body: VERNEMQ_OK });
    });

    it('auth_on_subscribe: own cmd; refused filters at QoS 128 beside allowed ones; none allowed is not_allowed', async () => {
      const subscribe = async (username: string, client_id: string, topics: { topic: string; qos: number }[]) => {
        const res = await vernemq('auth_on_subscribe', { username, client_id, mountpoint: '', topics });
        expect(res.status, res.text).toBe(200);
        return res.body;
      };
      expect(await subscribe(A(), A(), [{ topic: `dev/${A()}/cmd`, qos: 1 }])).toEqual(VERNEMQ_OK);
      expect(
        await subscribe(A(), A(), [
          { topic: `dev/${A()}/cmd`, qos: 1 },
          { topic: `dev/${B()}/cmd`, qos: 1 },
          { topic: '#', qos: 0 },
        ]),
      ).toEqual({
        result: 'ok',
        topics: [
          { topic: `dev/${A()}/cmd`, qos: 1 },
          { topic: `dev/${B()}/cmd`, qos: 128 },
          { topic: '#', qos: 128 },
        ],
      });
      expect(await subscribe(A(), A(), [{ topic: 'dev/+/cmd', qos: 1 }])).toEqual(VERNEMQ_NOT_ALLOWED);
      expect(await subscribe(A(), A(), [{ topic: '$SYS/#', qos: 0 }])).toEqual(VERNEMQ_NOT_ALLOWED);
      expect(await subscribe(A(), B(), [{ topic: `dev/${A()}/cmd`, qos: 1 }])).toEqual(VERNEMQ_NOT_ALLOWED);
      const shares = ['data', 'diag', 'ack'].map((kind) => ({ topic: `$share/portal/dev/+/${kind}`, qos: 1 }));
      expect(await subscribe('portal', 'portal-x-0', shares)).toEqual(VERNEMQ_OK);
    });

    it('refuses a hook sent to another hook’s endpoint (400, an error to VerneMQ)', async () => {
      const res = await vernemq(
        'auth_on_publish',
        { username: A(), client_id: A(), topic: `dev/${A()}/data` },
        SECRET,
        'auth_on_subscribe',
      );
      expect(res.status).toBe(400);
      const body = await vernemq('auth_on_register', {
        username: A(),
        password: a.deviceKey,
        client_id: A(),
        extra: { x: 1 },
      });
      expect(body.body).toEqual(VERNEMQ_OK);
    });
  });

  it('refuses a removed device at its next call (nothing is cached)', async () => {
    const c = await provision(tp);
    const id = c.deviceid;
    expect(await goAuthAllows('user', { username: id, password: c.deviceKey, clientid: id })).toBe(true);
    expect(await goAuthAllows('acl', { username: id, clientid: id, topic: `dev/${id}/data`, acc: 2 })).toBe(true);
    await tp.portal.db.query('DELETE FROM devices WHERE id = $1', [id]);
    expect(await goAuthAllows('user', { username: id, password: c.deviceKey, clientid: id })).toBe(false);
    expect(await goAuthAllows('acl', { username: id, clientid: id, topic: `dev/${id}/data`, acc: 2 })).toBe(false);
    const emqxAnswer = await emqx('authorize', {
      username: id,
      clientid: id,
      topic: `dev/${id}/data`,
      action: 'publish',
    });
    expect(emqxAnswer.body).toEqual({ result: 'deny' });
  });

  it('answers 401 without the right secret, in the header or the query, and tells nothing more', async () => {
    const body = { username: A(), password: a.deviceKey, clientid: A() };
    const bodies: Record<string, unknown> = {
      'go-auth/user': body,
      'go-auth/superuser': { username: 'portal' },
      'go-auth/acl': { ...body, topic: `dev/${A()}/data`, acc: 2 },
      'emqx/authenticate': body,
      'emqx/authorize': { ...body, topic: `dev/${A()}/data`, action: 'publish' },
      'vernemq/auth_on_register': { username: A(), password: a.deviceKey, client_id: A() },
      'vernemq/auth_on_publish': { username: A(), client_id: A(), topic: `dev/${A()}/data` },
      'vernemq/auth_on_subscribe': { username: A(), client_id: A(), topics: [{ topic: `dev/${A()}/cmd`, qos: 1 }] },
    };
    for (const [hook, payload] of Object.entries(bodies)) {
      const call = (path: string, headers: Record<string, string> = {}) =>
        tp.client().post(`${HOOKS}/${hook}${path}`, payload, { csrf: false, headers });
      for (const res of [
        await call(''),
        await call(query('wrong-secret-0123456789')),
        await call(query(SECRET.slice(0, -1))),
        await call(query(`${SECRET}x`)),
        await call('', { 'x-portal-hook-secret': 'wrong-secret-0123456789' }),
        await call(`?secret=${SECRET}&secret=${SECRET}`),
      ]) {
        expect({ status: res.status, body: res.body }, hook).toEqual({
          status: 401,
          body: { message: 'Not allowed', code: 'UNAUTHENTICATED' },
        });
      }
      // The right secret either way reaches the hook.
      expect((await call(query(SECRET))).status, hook).toBe(200);
      expect((await call('', { 'x-portal-hook-secret': SECRET })).status, hook).toBe(200);
    }
  });

  it('is never limited per client address, and keeps the secret out of the request log', async () => {
    // RATE_LIMIT_PER_MINUTE is 2 here; a broker calls once per connect, publish and subscribe.
    for (let i = 0; i < 25; i += 1) {
      expect(await goAuthAllows('acl', { username: A(), clientid: A(), topic: `dev/${A()}/data`, acc: 2 })).toBe(true);
    }
    const logged = JSON.stringify(tp.logs.lines);
    expect(logged).toContain('/api/mqtt-auth/go-auth/acl?secret=[redacted]');
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toContain(a.deviceKey);
    expect(logged).not.toContain(PORTAL_USER.password);
  });

  it('documents every hook under the tag mqtt-auth, with a summary and the secret as its security', async () => {
    const doc = (await tp.client().get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, { tags?: string[]; summary?: string; security?: unknown[] }>>;
      components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
    };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      path.startsWith(HOOKS) ? Object.keys(ops).map((method) => [method, path]) : [],
    );
    expect(documented.sort()).toEqual(HOOK_ROUTES.map(([m, p]) => [m, p]).sort());
    for (const [method, path] of HOOK_ROUTES) {
      const op = doc.paths[path]![method]!;
      expect(op.tags, path).toEqual(['mqtt-auth']);
      expect(op.summary, path).toMatch(/\w/);
      expect(op.security, path).toEqual([{ hookSecret: [] }, { hookSecretQuery: [] }]);
    }
    expect(doc.components.securitySchemes.hookSecret).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-portal-hook-secret',
    });
    expect(doc.components.securitySchemes.hookSecretQuery).toMatchObject({
      type: 'apiKey',
      in: 'query',
      name: 'secret',
    });
    // Every answer above was one the document describes (the client checks each), and none was a 5xx.
    expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
  });
});

describe('broker HTTP hooks without MQTT_AUTH_HOOK_SECRET', () => {
  let tp: TestPortal;
  beforeAll(async () => {
    tp = await startPortalForTest(quietTestConfig());
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('are not there: 404, and not in the document', async () => {
    for (const [, path] of HOOK_ROUTES) {
      // With the browser's CSRF header, to see the router's answer: without it (as a broker calls)
      // an unknown POST is refused by the CSRF guard first (403), a refusal all the same.
      const res = await tp.client().post(`${path}?secret=${SECRET}`, { username: 'portal' });
      expect({ status: res.status, code: (res.body as { code?: string }).code }, path).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
      const broker = await tp.client().post(`${path}?secret=${SECRET}`, { username: 'portal' }, { csrf: false });
      expect(broker.status, path).toBe(403);
    }
    const doc = (await tp.client().get('/api/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((path) => path.startsWith(HOOKS))).toEqual([]);
  });
});

describe('broker hook configuration', () => {
  it.each(['short-secret', 'x'.repeat(257), 'a secret with spaces in it', 'secret&with=query#chars'])(
    'refuses MQTT_AUTH_HOOK_SECRET %j',
    (secret) => {
      expect(() => loadConfig({ MQTT_AUTH_HOOK_SECRET: secret })).toThrow(ConfigError);
      expect(() => loadConfig({ MQTT_AUTH_HOOK_SECRET: secret })).toThrow(
        /^Invalid configuration: MQTT_AUTH_HOOK_SECRET /,
      );
    },
  );

  it('takes a secret of 16 or more URL-safe characters; blank is unset', () => {
    expect(loadConfig({ MQTT_AUTH_HOOK_SECRET: SECRET }).mqttAuthHookSecret).toBe(SECRET);
    expect(loadConfig({ MQTT_AUTH_HOOK_SECRET: ' ' }).mqttAuthHookSecret).toBeUndefined();
  });

  it.each([
    ['mqtt://portal:secret@broker:1883', { username: 'portal', password: 'secret' }],
    ['mqtts://por%40tal:se%3Acret%2F@broker', { username: 'por@tal', password: 'se:cret/' }],
    ['mqtt://portal@broker:1883', null],
    ['mqtt://:secret@broker:1883', null],
    ['mqtt://broker:1883', null],
    ['not a url', null],
    [undefined, null],
  ])('the portal broker user of MQTT_URL %j is %j', (url, user) => {
    expect(portalBrokerUser(url)).toEqual(user);
  });
});
