/** The route suite's system area: health, the OpenAPI document and its reference page, unknown routes, pages without a web build, the demo seed. */
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, DEMO_USER, STAFF_USER } from '../../src/seed';
import { NOT_BUILT_MESSAGE } from '../../src/plugins/static';
import { type TestPortal, signedIn, userRow } from '../helpers';
import { type SuitePortal, expectError } from './fixtures';
import { ROUTES } from './route-tables';

export function describeSystem(suite: SuitePortal): void {
  describe('system', () => {
    let tp: TestPortal;
    beforeAll(() => {
      ({ tp } = suite);
    });

    it('GET /api/health answers ok', async () => {
      const res = await tp.client().get('/api/health');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    });

    it('the OpenAPI document lists every route, and /api/docs serves the reference page', async () => {
      const client = tp.client();
      const res = await client.get('/api/openapi.json');
      expect(res.status).toBe(200);
      const doc = res.body as { openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>> };
      expect(doc.openapi).toMatch(/^3\./);
      for (const [method, path] of ROUTES) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
      const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
      expect(listed.sort()).toEqual(ROUTES.map(([m, p]) => `${m} ${p}`).sort());
      expect(doc.paths['/api/auth/signup']!.post!.requestBody).toBeDefined();
      const docs = await client.get('/api/docs');
      expect(docs.status).toBe(200);
      expect(docs.text).toMatch(/swagger/i);
    });

    it('unknown /api routes answer 404 NOT_FOUND', async () => {
      const client = tp.client();
      expectError(await client.get('/api/nothing-here'), 404, 'NOT_FOUND', 'Not found');
      expectError(await client.post('/api/nothing-here', { a: 1 }), 404, 'NOT_FOUND', 'Not found');
      expectError(await client.get('/api'), 404, 'NOT_FOUND');
    });

    it('without a web build, pages answer 503 with a one-line hint', async () => {
      const res = await tp.client().get('/some/page');
      expect(res.status).toBe(503);
      expect(res.text).toBe(NOT_BUILT_MESSAGE);
    });

    it('seeds the demo and staff accounts once (running the seed again creates nothing)', async () => {
      expect((await userRow(tp, DEMO_USER.email)).userGroups).toEqual([]);
      expect((await userRow(tp, STAFF_USER.email)).userGroups).toEqual(['senquip_admin', 'distributors']);
      expect(await seedDemo(tp.portal.app.services)).toEqual([]);
      await signedIn(tp, DEMO_USER);
      await signedIn(tp, STAFF_USER);
    });
  });
}
