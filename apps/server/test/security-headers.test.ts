import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAP_TILES } from '@portal/core';
import { contentSecurityPolicy } from '../src/plugins/security-headers';
import { startTestPortal, type TestPortal } from './helpers';

const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

describe('security headers', () => {
  let tp: TestPortal;
  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', webDist: WEB_DIST, seed: false });
  });
  afterAll(async () => {
    await tp?.close();
  });

  it.each(['/', '/login', '/api/health', '/api/nope', '/api/auth/session'])('%s carries them', async (path) => {
    const res = await fetch(`${tp.base}${path}`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('content-security-policy')).toBe(
      contentSecurityPolicy(['https://*.tile.openstreetmap.org']),
    );
  });

  it('images may come from the map tile server, and the web app reads where it is', async () => {
    const res = await fetch(`${tp.base}/api/map-tiles`);
    expect(await res.json()).toEqual(DEFAULT_MAP_TILES);
    expect(res.headers.get('content-security-policy')).toContain(
      "img-src 'self' data: blob: https://*.tile.openstreetmap.org;",
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
    expect(res.headers.get('content-security-policy')).toContain(
      "img-src 'self' data: blob: http://tiles.internal:8081;",
    );
    expect(res.headers.get('content-security-policy')).not.toContain('openstreetmap');
  });
});
