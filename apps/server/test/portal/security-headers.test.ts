import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAP_TILES } from '@portal/core';
import { startTestPortal, type TestPortal } from '../helpers';

const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** The policy written out: any directive added, dropped or widened fails the comparison. */
function expectedPolicy(tileSource: string): Record<string, string> {
  return {
    'default-src': "'self'",
    'script-src': "'self'",
    'style-src': "'self' 'unsafe-inline'",
    'img-src': `'self' data: blob: ${tileSource}`,
    'font-src': "'self' data:",
    'connect-src': "'self'",
    'object-src': "'none'",
    'base-uri': "'self'",
    'form-action': "'self'",
    'frame-ancestors': "'none'",
  };
}

/** `a b; c d` -> { a: 'b', c: 'd' }; a directive named twice is kept twice (and fails). */
function directives(header: string | null): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (!name) continue;
    result[name in result ? `${name} (again)` : name] = values.join(' ');
  }
  return result;
}

function expectHeaders(res: Response, tileSource: string): void {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
  expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
  expect(directives(res.headers.get('content-security-policy'))).toEqual(expectedPolicy(tileSource));
}

describe('security headers', () => {
  const osmTiles = 'https://*.tile.openstreetmap.org';
  let tp: TestPortal;
  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', webDist: WEB_DIST, seed: false });
  });
  afterAll(async () => {
    await tp?.close();
  });

  it.each(['/', '/login', '/api/health', '/api/nope', '/api/auth/session', '/api/openapi.json'])(
    'GET %s carries them',
    async (path) => {
      expectHeaders(await fetch(`${tp.base}${path}`), osmTiles);
    },
  );

  it('an answer refused by an earlier hook carries them too (CSRF 403)', async () => {
    const res = await fetch(`${tp.base}/api/auth/logout`, { method: 'POST' });
    expect(res.status).toBe(403);
    expectHeaders(res, osmTiles);
  });

  it('the policy is the one written above, read from the header itself', async () => {
    const header = (await fetch(`${tp.base}/api/health`)).headers.get('content-security-policy');
    expect(header).toContain("script-src 'self';");
    expect(header).toContain("frame-ancestors 'none'");
    expect(header).toContain("object-src 'none'");
    expect(header).not.toMatch(/unsafe-eval|upgrade-insecure-requests/);
  });

  it('images may come from the map tile server, and the web app reads where it is', async () => {
    const res = await fetch(`${tp.base}/api/map-tiles`);
    expect(await res.json()).toEqual(DEFAULT_MAP_TILES);
    expect(directives(res.headers.get('content-security-policy'))['img-src']).toBe(
      "'self' data: blob: https://*.tile.openstreetmap.org",
    );
  });
});

describe('a self-hosted tile server (MAP_TILE_URL)', () => {
  let tp: TestPortal;
  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false, mapTileUrl: 'http://tiles.internal:8081/{z}/{x}/{y}.png' });
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('is what the pages allow and what the web app is told', async () => {
    const res = await fetch(`${tp.base}/api/map-tiles`);
    expect(await res.json()).toEqual({ url: 'http://tiles.internal:8081/{z}/{x}/{y}.png', attribution: '' });
    expectHeaders(res, 'http://tiles.internal:8081');
    expect(res.headers.get('content-security-policy')).not.toContain('openstreetmap');
  });
});
