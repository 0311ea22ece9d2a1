/**
 * How the portal delivers over HTTP: the web app's files in the brotli or gzip copy the build wrote
 * beside them, chosen by Accept-Encoding, cached for good when hashed and revalidated otherwise; API
 * answers compressed above 1 kB; a real /robots.txt. Raw HTTP (node:http), so the bytes on the wire
 * are what is checked, not what a client decoded.
 */
import http from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from '../helpers';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request as sent: no Accept-Encoding unless given, the body as it arrived (not decoded). */
function raw(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Text that compresses well and is over the 1 kB threshold. */
const padded = (line: string, times: number) => Array.from({ length: times }, (_, i) => `${line} ${i}`).join('\n');

/** A file and its two copies, as the web build writes them. */
function writeWithCopies(path: string, text: string): Buffer {
  const bytes = Buffer.from(text);
  writeFileSync(path, bytes);
  writeFileSync(`${path}.br`, brotliCompressSync(bytes));
  writeFileSync(`${path}.gz`, gzipSync(bytes));
  return bytes;
}

describe('web delivery: precompressed files by Accept-Encoding', () => {
  let tp: TestPortal;
  let webDist: string;
  let script: Buffer;
  let index: Buffer;
  const favicon = '<svg xmlns="http://www.w3.org/2000/svg"/>';

  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'portal-web-delivery-'));
    mkdirSync(join(webDist, 'assets'));
    index = writeWithCopies(
      join(webDist, 'index.html'),
      `<!doctype html><title>Portal</title><div id="root"></div><!--\n${padded('a page', 80)}\n-->`,
    );
    script = writeWithCopies(join(webDist, 'assets', 'index-1a2b3c.js'), padded('console.log("entry")', 400));
    writeFileSync(join(webDist, 'favicon.svg'), favicon);
    mkdirSync(join(webDist, '.vite'));
    writeFileSync(join(webDist, '.vite', 'manifest.json'), '{"index.html":{"file":"assets/index-1a2b3c.js"}}');
    tp = await startTestPortal({ db: 'pglite', webDist, seed: false });
  });
  afterAll(async () => {
    await tp?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('sends the brotli copy to a client that takes br, and it decodes to the file', async () => {
    const res = await raw(tp.base, '/assets/index-1a2b3c.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(res.body).equals(script)).toBe(true);
  });

  it('sends the gzip copy to a client that takes gzip only (or refuses br)', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip']) {
      const res = await raw(tp.base, '/assets/index-1a2b3c.js', { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(gunzipSync(res.body).equals(script)).toBe(true);
    }
  });

  it('sends the file itself without Accept-Encoding, still saying it varies by it', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const res = await raw(tp.base, '/assets/index-1a2b3c.js', headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(res.body.equals(script)).toBe(true);
    }
  });

  it('index.html, at / and as the page of a client route, is negotiated too and revalidated', async () => {
    for (const path of ['/', '/index.html', '/data/DEMO00001', '/login?redirect=%2Faccount']) {
      const br = await raw(tp.base, path, { 'accept-encoding': 'br' });
      expect(br.status, path).toBe(200);
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(br.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(br.headers['cache-control'], path).toBe('no-cache');
      expect(br.headers.vary, path).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.body).equals(index), path).toBe(true);
      const plain = await raw(tp.base, path);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.body.equals(index), path).toBe(true);
    }
  });

  it('a small file the build left uncompressed is sent as it is, not compressed per request', async () => {
    const res = await raw(tp.base, '/favicon.svg', { 'accept-encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body.toString()).toBe(favicon);
  });

  it("the build's manifest is not served", async () => {
    for (const encoding of [{}, { 'accept-encoding': 'br' }] as Record<string, string>[]) {
      const res = await raw(tp.base, '/.vite/manifest.json', encoding);
      expect(res.status).toBe(404);
      expect(res.body.toString()).not.toContain('index-1a2b3c');
    }
  });

  it('a missing hashed file and an unknown API path keep their 404s', async () => {
    expect((await raw(tp.base, '/assets/missing-123.js', { 'accept-encoding': 'br' })).status).toBe(404);
    const api = await raw(tp.base, '/api/missing', { 'accept-encoding': 'br' });
    expect(api.status).toBe(404);
    expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(api.body.toString())).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('web delivery: API answers compressed above 1 kB', () => {
  let tp: TestPortal;
  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false });
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('a large JSON answer is compressed when asked, and decodes to the plain one', async () => {
    const plain = await raw(tp.base, '/api/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(10_000);
    const br = await raw(tp.base, '/api/openapi.json', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    const gzip = await raw(tp.base, '/api/openapi.json', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
  });

  it('a small JSON answer is sent as it is', async () => {
    const res = await raw(tp.base, '/api/health', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toBeTruthy();
  });

  it('security headers stay on a compressed answer', async () => {
    const res = await raw(tp.base, '/api/openapi.json', { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });
});

describe('/robots.txt', () => {
  let tp: TestPortal;
  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false });
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('is plain text: public pages allowed; the API, the signed-in app and one-time links not', async () => {
    const res = await raw(tp.base, '/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.body.toString().split('\n');
    expect(lines).toContain('User-agent: *');
    for (const rule of ['Allow: /$', 'Allow: /login$', 'Allow: /signup$', 'Allow: /legal/', 'Allow: /docs/'])
      expect(lines).toContain(rule);
    for (const rule of ['Disallow: /api/', 'Disallow: /']) expect(lines).toContain(rule);
    expect((await raw(tp.base, '/robots.txt', {}, 'HEAD')).status).toBe(200);
  });
});

describe('the built web app (npm run build)', () => {
  // The build under test: apps/web/dist, or E2E_WEB_DIST (a build elsewhere, as for the browser tests).
  const webDist = process.env.E2E_WEB_DIST ?? fileURLToPath(new URL('../../../web/dist', import.meta.url));
  let tp: TestPortal;
  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', webDist, seed: false });
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('its entry script has brotli and gzip copies, and travels as brotli', async () => {
    const page = (await raw(tp.base, '/login')).body.toString();
    const entry = /<script type="module"[^>]* src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
    expect(entry).toBeDefined();
    const file = readFileSync(join(webDist, entry!));
    expect(brotliDecompressSync(readFileSync(join(webDist, `${entry!}.br`))).equals(file)).toBe(true);
    expect(gunzipSync(readFileSync(join(webDist, `${entry!}.gz`))).equals(file)).toBe(true);
    const res = await raw(tp.base, entry!, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.body.length).toBeLessThan(file.length / 3);
  });
});

describe('index.html with BRAND_OVERRIDES', () => {
  let tp: TestPortal;
  let webDist: string;
  const overrides = { tank: { hideAccount: true, footerText: 'Tanks </script> & Co' } };

  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'portal-web-overrides-'));
    mkdirSync(join(webDist, 'assets'));
    writeWithCopies(
      join(webDist, 'index.html'),
      `<!doctype html><head><title>Portal</title></head><body>${padded('x', 80)}`,
    );
    tp = await startTestPortal({ db: 'pglite', webDist, seed: false, brandOverrides: JSON.stringify(overrides) });
  });
  afterAll(async () => {
    await tp?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('carries the configured fields as a JSON block in the head of every page, not as a compressed copy', async () => {
    for (const path of ['/', '/index.html', '/account', '/data/DEMO00001']) {
      const res = await raw(tp.base, path, { 'accept-encoding': 'br, gzip' });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(res.headers['content-encoding'], path).toBeUndefined();
      expect(res.headers['cache-control'], path).toBe('no-cache');
      const page = res.body.toString();
      const block = /<script type="application\/json" id="brand-overrides">(.*?)<\/script><\/head>/.exec(page);
      expect(block, path).not.toBeNull();
      // '<' is escaped: the configured text cannot close the element early.
      expect(block![1]).not.toContain('<');
      expect(JSON.parse(block![1]!)).toEqual(overrides);
    }
  });
});
