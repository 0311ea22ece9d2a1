/**
 * Credentials before content (DESIGN.md section 5): every operation of the OpenAPI document that
 * needs credentials (a session or API key, a device key, the broker hooks' secret) refuses a
 * caller without them before its body is read or its body, query and path are validated, so a
 * probe learns nothing of a signed-in call's schema. Walks the document (a new route is covered
 * without being listed here) and sends a malformed JSON body and wrong-typed query and path values:
 *   - no credentials: 401, never 400 (a state-changing call without the CSRF header: 403 CSRF,
 *     which is checked first: the header is a credential too);
 *   - an unknown API key, device key or hook secret: 401;
 *   - a signed-in user outside the staff groups, on a staff call: 403, never 400.
 * Also: a guard registered in a later phase than onRequest fails the start (route-security.ts).
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MQTT_AUTH_SECRET_HEADER } from '@portal/core';
import { requireUser } from '../../src/modules/access/access.hooks';
import { lateGuardPhases, registerGuardPlacement, routeSecurity } from '../../src/plugins/route-security';
import { OPENAPI_PATH } from '../../src/plugins/swagger';
import {
  makeUser,
  signedIn,
  startTestPortal,
  type ApiClient,
  type ApiResponse,
  type RequestOptions,
  type TestPortal,
} from '../helpers';

const HOOK_SECRET = 'credentials-first-hook-secret';
const MALFORMED_JSON = '{"fuzz":';
const WRONG = 'not-a-number';
/** An API key of the right shape that no one holds. */
const UNKNOWN_API_KEY = `ppk_${'A'.repeat(43)}`;

/**
 * The staff calls (staff groups senquip_admin, provisioning_account, distributors): a signed-in
 * user outside them is refused. A staff call missing here fails the test that names this list.
 */
const STAFF_CALLS = new Set([
  'GET /api/outbox',
  'GET /api/distributors',
  'POST /api/distributors',
  'PUT /api/distributors',
  'PUT /api/distributor-devices',
  'GET /api/staff/search',
  'GET /api/staff/device/{id}',
  'GET /api/staff/user/{userid}',
  'PUT /api/staff/user/{userid}/brand-image',
  'DELETE /api/staff/user/{userid}/brand-image',
  'GET /api/billing-admin-stats',
  'POST /api/billing-update-plan',
  'POST /api/billing-invoice-paid/{invoiceid}',
  'GET /api/billing-admin-device/{id}',
  'POST /api/billing-packing-slip',
  'POST /api/billing-distributor-action/{id}',
  'GET /api/prov-portal-get-device-label/{id}',
  'POST /api/prov-portal-labels',
  'POST /api/prov-portal-edit-device/{id}',
  'GET /api/prov-portal-get-device/{id}',
  'GET /api/prov-portal-device-exists/{id}',
  'GET /api/prov-portal-get-device-log/{id}',
  'POST /api/prov-portal-add-device-log/{id}',
  'POST /api/prov-portal-run-test/{id}',
]);

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
}

interface Operation {
  method: string;
  /** The document's path template, e.g. /api/device/{id}/settings. */
  path: string;
  parameters: Parameter[];
  /** The scheme of its first security requirement, null for a public operation. */
  security: string | null;
}

type Document = {
  paths: Record<string, Record<string, { parameters?: Parameter[]; security?: Record<string, unknown>[] }>>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function readOperations(doc: Document): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        security: Object.keys(op.security?.[0] ?? {})[0] ?? null,
      })),
  );
}

const keyOf = (op: Operation) => `${op.method} ${op.path}`;
const readsBody = (op: Operation) => op.method !== 'GET';

/** The operation's address with a wrong value in every path parameter and a wrong-typed query. */
function probeAddress(op: Operation): string {
  const path = op.path.replace(/\{[^}]+\}/g, WRONG);
  // Each query parameter twice (a list where one value is expected), wrong-typed, and an unknown one.
  const query = op.parameters
    .filter((p) => p.in === 'query')
    .flatMap((p) => [`${encodeURIComponent(p.name)}=${WRONG}`, `${encodeURIComponent(p.name)}=%7B%7D`]);
  return `${path}?${[...query, 'fuzz=1'].join('&')}`;
}

/** The probe: a malformed JSON body where the method reads one, and the wrong address. */
function probe(client: ApiClient, op: Operation, options: RequestOptions = {}): Promise<ApiResponse> {
  return client.request(op.method, probeAddress(op), {
    ...options,
    ...(readsBody(op) ? { rawBody: MALFORMED_JSON } : {}),
  });
}

const answer = (res: ApiResponse) => {
  const body = res.body as { code?: string } | undefined;
  return `${res.status} ${body?.code ?? ''}`.trim();
};

describe('credentials before content: every guarded operation of the document', () => {
  let tp: TestPortal;
  let operations: Operation[];
  let member: ApiClient;
  let staff: ApiClient;

  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false, mqttAuthHookSecret: HOOK_SECRET });
    operations = readOperations((await tp.client().get(OPENAPI_PATH)).body as Document);
    member = await signedIn(tp, await makeUser(tp));
    staff = await signedIn(
      tp,
      await makeUser(tp, { userGroups: ['senquip_admin', 'provisioning_account', 'distributors'] }),
    );
  });
  afterAll(async () => {
    await tp?.close();
  });

  const guarded = (scheme: string) => operations.filter((op) => op.security === scheme);

  it('the document has operations of each scheme to walk', () => {
    expect(guarded('session').length).toBeGreaterThan(60);
    expect(guarded('deviceKey').length).toBeGreaterThanOrEqual(3);
    expect(guarded('hookSecret').length).toBeGreaterThanOrEqual(4);
  });

  it('a session call answers a caller without a session 401 (403 CSRF without the header), never 400', async () => {
    const wrong: string[] = [];
    for (const op of guarded('session')) {
      const anonymous = tp.client();
      const expect401 = answer(await probe(anonymous, op));
      if (expect401 !== '401 UNAUTHENTICATED') wrong.push(`${keyOf(op)} without a session: ${expect401}`);
      const unknownKey = answer(
        await probe(anonymous, op, { headers: { authorization: `Bearer ${UNKNOWN_API_KEY}` } }),
      );
      if (unknownKey !== '401 UNAUTHENTICATED') wrong.push(`${keyOf(op)} with an unknown API key: ${unknownKey}`);
      if (readsBody(op)) {
        const noHeader = answer(await probe(anonymous, op, { csrf: false }));
        if (noHeader !== '403 CSRF') wrong.push(`${keyOf(op)} without a session nor the CSRF header: ${noHeader}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a device-key call answers a caller without the device key 401, never 400', async () => {
    const wrong: string[] = [];
    for (const op of guarded('deviceKey')) {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Device not-the-key' },
        { authorization: `Bearer ${UNKNOWN_API_KEY}` },
      ];
      for (const headers of attempts) {
        const got = answer(await probe(tp.client(), op, { headers, csrf: false }));
        if (!got.startsWith('401 ')) wrong.push(`${keyOf(op)} with ${JSON.stringify(headers)}: ${got}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a broker hook answers a caller without the hook secret 401, never 400', async () => {
    const wrong: string[] = [];
    for (const op of guarded('hookSecret')) {
      const attempts: Record<string, string>[] = [{}, { [MQTT_AUTH_SECRET_HEADER]: 'not-the-secret' }];
      for (const headers of attempts) {
        const got = answer(await probe(tp.client(), op, { headers, csrf: false }));
        if (!got.startsWith('401 ')) wrong.push(`${keyOf(op)} with ${JSON.stringify(headers)}: ${got}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a staff call answers a signed-in user outside the staff groups 403, never 400', async () => {
    const documented = new Set(guarded('session').map(keyOf));
    expect([...STAFF_CALLS].filter((key) => !documented.has(key))).toEqual([]);
    const wrong: string[] = [];
    const unlisted: string[] = [];
    for (const op of guarded('session')) {
      const got = answer(await probe(member, op));
      if (STAFF_CALLS.has(keyOf(op))) {
        if (got !== '403 FORBIDDEN') wrong.push(`${keyOf(op)}: ${got}`);
        // The same request from staff passes the guard (validation or the service answers it).
        const asStaff = answer(await probe(staff, op));
        if (asStaff.startsWith('401 ') || asStaff === '403 FORBIDDEN') wrong.push(`${keyOf(op)} as staff: ${asStaff}`);
      } else if (got === '403 FORBIDDEN' && answer(await probe(staff, op)) !== got) {
        unlisted.push(`${keyOf(op)} refuses a user outside the staff groups: add it to STAFF_CALLS`);
      }
    }
    expect(wrong).toEqual([]);
    expect(unlisted).toEqual([]);
  });
});

describe('guard placement', () => {
  it('a guard marked with guardOf runs onRequest; any later phase fails the start, naming the route', async () => {
    expect(routeSecurity({ onRequest: requireUser })).toBe('session');
    expect(routeSecurity({ onRequest: [async () => undefined, requireUser] })).toBe('session');
    expect(lateGuardPhases({ onRequest: requireUser })).toEqual([]);
    for (const phase of ['preParsing', 'preValidation', 'preHandler'] as const) {
      expect(lateGuardPhases({ [phase]: [requireUser] })).toEqual([phase]);
      const app = Fastify({ logger: false });
      registerGuardPlacement(app);
      expect(() => app.post('/api/late', { [phase]: requireUser }, () => 'late')).toThrow(
        `POST /api/late: a credential guard runs as ${phase}; guards run onRequest`,
      );
      app.get('/api/early', { onRequest: requireUser }, () => 'early');
      await app.close();
    }
  });
});
