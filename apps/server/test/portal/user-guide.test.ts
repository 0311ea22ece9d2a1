import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRANDS, BRAND_IDS } from '@portal/core';
import { USER_GUIDE_SOURCE, renderUserGuide } from '../../src/modules/site/user-guide';
import { startTestPortal, type TestPortal } from '../helpers';

const source = readFileSync(USER_GUIDE_SOURCE, 'utf8');
const headings = (html: string) => [...html.matchAll(/<h2 id="([a-z0-9-]+)">/g)].map((m) => m[1]);

describe('the user guide: one source, rendered per brand', () => {
  it.each(BRAND_IDS)('%s: titled with the brand, no markers or placeholders left', (id) => {
    const html = renderUserGuide(source, BRANDS[id]);
    expect(html).toContain(`<title>${BRANDS[id].name.replace('&', '&amp;')} user guide</title>`);
    expect(html).not.toMatch(/\{brand\}|<!--|\{#|if:/);
    // every contents entry points at a section of the page
    const links = [...html.matchAll(/<li><a href="#([a-z0-9-]+)">/g)].map((m) => m[1]);
    expect(links).toEqual(headings(html));
  });

  it('shows multi-factor authentication only where the brand allows it, plans only where shown', () => {
    const sections = (id: (typeof BRAND_IDS)[number]) => headings(renderUserGuide(source, BRANDS[id]));
    expect(renderUserGuide(source, BRANDS.default)).toContain('id="mfa"');
    expect(renderUserGuide(source, BRANDS.tank)).not.toContain('id="mfa"');
    expect(renderUserGuide(source, BRANDS.tank)).not.toContain('recovery code');
    expect(sections('default')).toContain('plans');
    expect(sections('carbon')).not.toContain('plans');
    expect(sections('air-quality')).not.toContain('plans');
    expect(sections('remote-monitoring')).toContain('remote-monitoring');
    expect(sections('default')).not.toContain('remote-monitoring');
    expect(renderUserGuide(source, BRANDS.default)).toContain('product news');
    expect(renderUserGuide(source, BRANDS.tank)).not.toContain('product news');
    // The customer's own logo (BRD-13): only where the brand shows a sub-brand.
    expect(renderUserGuide(source, BRANDS.default)).toContain('your organisation has its own logo');
    expect(renderUserGuide(source, BRANDS['remote-monitoring'])).toContain('your organisation has its own logo');
    expect(renderUserGuide(source, BRANDS.tank)).not.toContain('your organisation has its own logo');
  });

  it("a brand's docsLink that points into the guide names a section that brand's guide has", () => {
    for (const id of BRAND_IDS) {
      const anchor = /^\/docs\/#(.+)$/.exec(BRANDS[id].docsLink)?.[1];
      if (anchor) expect(headings(renderUserGuide(source, BRANDS[id]))).toContain(anchor);
    }
  });

  it('escapes a configured brand name', () => {
    const html = renderUserGuide(source, { ...BRANDS.default, name: '<b>Acme</b>' });
    expect(html).toContain('&lt;b&gt;Acme&lt;/b&gt; user guide');
    expect(html).not.toContain('<b>Acme</b>');
  });
});

describe('GET /docs/', () => {
  let tp: TestPortal;
  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', seed: false });
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('answers the guide of the brand of the host, as a page that revalidates', async () => {
    for (const [prefix, title] of [
      ['', 'Portal user guide'],
      ['tank.', 'Tank user guide'],
    ] as const) {
      for (const path of ['/docs/', '/docs']) {
        const res = await tp.client().get(path, { host: `${prefix}localhost:${tp.port}` });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.text).toContain(`<title>${title}</title>`);
      }
    }
  });
});
