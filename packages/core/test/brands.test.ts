import { describe, expect, it } from 'vitest';
import {
  BRAND_IDS,
  BRANDS,
  DEFAULT_DOCS_URL,
  brandForHost,
  isDevHost,
  pageTitle,
  withBrandOverrides,
  type BrandId,
} from '../src/index';

const SPEC_FIELDS = [
  'name',
  'url',
  'style',
  'mainBrandImg',
  'mainBrandHeight',
  'allowSubBrand',
  'hideFooter',
  'footerText',
  'hideDocs',
  'docsLink',
  'hideSupport',
  'hideAccount',
  'hidePlans',
  'hideMarketingEmailSignup',
  'allowMFA',
  'allowAPI',
  'faviconPrefix',
  'showRegulatoryInfo',
  'termsOfServiceURL',
  'privacyPolicyURL',
] as const;

describe('brand registry', () => {
  it('BRD-03: has exactly the default brand plus the 7 named brands', () => {
    expect([...BRAND_IDS].sort()).toEqual(
      ['default', 'tow-and-blow', 'blast', 'tank', 'pump', 'carbon', 'air-quality', 'remote-monitoring'].sort(),
    );
    expect(Object.keys(BRANDS).sort()).toEqual([...BRAND_IDS].sort());
    for (const id of BRAND_IDS) expect(BRANDS[id].id).toBe(id);
  });

  it('BRD-04: the spec lists 20 fields', () => {
    expect(SPEC_FIELDS).toHaveLength(20);
  });

  it.each(BRAND_IDS)('BRD-04: brand %s exposes all 20 spec keys with the right types', (id) => {
    const brand = BRANDS[id];
    for (const key of SPEC_FIELDS) expect(brand, key).toHaveProperty(key);
    expect(typeof brand.mainBrandHeight).toBe('number');
    for (const key of [
      'allowSubBrand',
      'hideFooter',
      'hideDocs',
      'hideSupport',
      'hideAccount',
      'hidePlans',
      'hideMarketingEmailSignup',
      'allowMFA',
      'allowAPI',
      'showRegulatoryInfo',
    ] as const) {
      expect(typeof brand[key], key).toBe('boolean');
    }
    for (const key of [
      'name',
      'url',
      'style',
      'mainBrandImg',
      'footerText',
      'docsLink',
      'faviconPrefix',
      'termsOfServiceURL',
      'privacyPolicyURL',
    ] as const) {
      expect(typeof brand[key], key).toBe('string');
    }
    expect(brand.name).not.toBe('');
    expect(brand.mainBrandImg).toContain(id);
    expect(brand.faviconPrefix).toContain(id);
  });

  it.each<[BrandId, number]>([
    ['default', 42],
    ['tow-and-blow', 42],
    ['blast', 42],
    ['tank', 42],
    ['pump', 42],
    ['carbon', 24],
    ['air-quality', 41],
    ['remote-monitoring', 42],
  ])('BRD-06: %s logo height is %i', (id, height) => {
    expect(BRANDS[id].mainBrandHeight).toBe(height);
  });

  it('BRD-10: MFA is allowed on exactly the default and remote-monitoring brands', () => {
    expect(BRAND_IDS.filter((id) => BRANDS[id].allowMFA).sort()).toEqual(['default', 'remote-monitoring']);
  });

  it('BRD-11: API access only on the default brand', () => {
    expect(BRAND_IDS.filter((id) => BRANDS[id].allowAPI)).toEqual(['default']);
  });

  it('BRD-12: regulatory info only on the default brand', () => {
    expect(BRAND_IDS.filter((id) => BRANDS[id].showRegulatoryInfo)).toEqual(['default']);
  });

  it('DESIGN 5: equipment brands hide Docs and marketing signup and have footer text; carbon and air-quality hide plans', () => {
    for (const id of ['tow-and-blow', 'blast', 'tank', 'pump'] as const) {
      expect(BRANDS[id].hideDocs).toBe(true);
      expect(BRANDS[id].hideMarketingEmailSignup).toBe(true);
      expect(BRANDS[id].footerText).not.toBe('');
    }
    expect(BRAND_IDS.filter((id) => BRANDS[id].hidePlans).sort()).toEqual(['air-quality', 'carbon']);
    expect(BRAND_IDS.filter((id) => BRANDS[id].allowSubBrand).sort()).toEqual(['default', 'remote-monitoring']);
  });

  it('BRD-01: every non-default brand has exactly one distinct host prefix ending in a dot', () => {
    const prefixes = BRAND_IDS.filter((id) => id !== 'default').map((id) => BRANDS[id].hostPrefix);
    expect(new Set(prefixes).size).toBe(7);
    for (const p of prefixes) expect(p).toMatch(/^[a-z]+\.$/);
    expect(BRANDS.default.hostPrefix).toBe('');
  });

  it('has a default docs page', () => {
    expect(DEFAULT_DOCS_URL).toMatch(/^\//);
  });
});

describe('brandForHost', () => {
  it.each<[string, BrandId]>([
    ['tank.localhost', 'tank'],
    ['tank.localhost:8080', 'tank'],
    ['TANK.Example.COM', 'tank'],
    ['dev.tank.example.com', 'tank'],
    ['dev-tank.example.com', 'tank'],
    ['localhost', 'default'],
    ['127.0.0.1', 'default'],
    ['portal.example.com', 'default'],
    ['towandblow.x', 'tow-and-blow'],
    ['blast.x', 'blast'],
    ['pump.x', 'pump'],
    ['carbon.x', 'carbon'],
    ['airquality.x', 'air-quality'],
    ['remote.x', 'remote-monitoring'],
    ['tanker.x', 'default'],
    ['x.tank.example.com', 'default'],
    ['', 'default'],
    ['__proto__', 'default'],
    ['constructor.x', 'default'],
    ['a'.repeat(10_000), 'default'],
  ])('%s -> %s', (host, id) => {
    expect(brandForHost(host).id).toBe(id);
  });

  it('uses an overridden table', () => {
    const brands = withBrandOverrides({ tank: { hostPrefix: 'cistern.', name: 'Cistern' } });
    expect(brandForHost('cistern.x', brands).name).toBe('Cistern');
    expect(brandForHost('tank.x', brands).id).toBe('default');
    expect(brands.tank.id).toBe('tank');
  });

  it('overrides cannot change a brand id', () => {
    const brands = withBrandOverrides({ pump: { name: 'P' } });
    expect(brands.pump.id).toBe('pump');
    expect(brands.blast).toEqual(BRANDS.blast);
  });
});

describe('page title and dev host', () => {
  it.each([
    ['portal.example.com', 'Portal', false],
    ['localhost', 'Portal', false],
    ['dev.portal.example.com', 'Dev Portal', true],
    ['dev.tank.example.com', 'Dev Portal', true],
    ['dev-portal.example.com', 'Dev Portal', true],
    ['devices.example.com', 'Portal', false],
    ['', 'Portal', false],
  ])('%s -> %s', (host, title, dev) => {
    expect(pageTitle(host)).toBe(title);
    expect(isDevHost(host)).toBe(dev);
  });
});
