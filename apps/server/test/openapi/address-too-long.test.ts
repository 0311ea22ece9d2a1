/**
 * The documented 414 (plugins/swagger.ts: every operation with a path parameter): a path parameter
 * over MAX_PARAM_LENGTH characters answers 414 { message, code } for every method, GET and HEAD
 * included, also when the web app is built (its wildcard route takes GET and HEAD requests that
 * no other route matches). The router decides before any hook runs, so 414 comes before the CSRF
 * header, the session and every guard: the requests here carry no credentials.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_TOO_LONG_MESSAGE, MAX_PARAM_LENGTH } from '../../src/plugins/errors';
import { OPENAPI_PATH } from '../../src/plugins/swagger';
import { startTestPortal, type TestPortal } from '../helpers';

type Document = { paths: Record<string, Record<string, unknown>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const LONG = 'a'.repeat(MAX_PARAM_LENGTH + 1);
const expected = { message: ADDRESS_TOO_LONG_MESSAGE, code: 'BAD_REQUEST' };

describe('a path parameter over the limit', () => {
  let tp: TestPortal;
  let webDist: string;

  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'portal-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
    tp = await startTestPortal({ db: 'pglite', seed: false, webDist, mqttAuthHookSecret: 'address-hook-secret' });
  });
  afterAll(async () => {
    await tp?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it(`answers 414 for every method of every operation with path parameters (${MAX_PARAM_LENGTH + 1} characters)`, async () => {
    const doc = (await tp.client().get(OPENAPI_PATH)).body as Document;
    const wrong: string[] = [];
    let requests = 0;
    for (const [template, methods] of Object.entries(doc.paths)) {
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
      for (const method of Object.keys(methods).filter((m) => METHODS.includes(m))) {
        for (const long of names) {
          const path = template.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === long ? LONG : 'x'));
          const where = `${template} (${long})`;
          const verbs = method === 'get' ? ['GET', 'HEAD'] : [method.toUpperCase()];
          for (const verb of verbs) {
            requests += 1;
            // The client checks the answer against the document (414 documented for the operation).
            const res = await tp.client().request(verb, path, { csrf: false });
            if (res.status !== 414) wrong.push(`${verb} ${where}: ${res.status} ${res.text.slice(0, 80)}`);
            else if (verb !== 'HEAD' && JSON.stringify(res.body) !== JSON.stringify(expected))
              wrong.push(`${verb} ${where}: ${res.text}`);
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });

  it('keeps 404 for an address no route has, and a parameter at the limit reaches the route', async () => {
    expect((await tp.client().get(`/api/no-such-call/${LONG}`)).status).toBe(404);
    expect((await tp.client().get(`/api/device/${'a'.repeat(MAX_PARAM_LENGTH)}/settings`)).status).toBe(401);
  });
});
