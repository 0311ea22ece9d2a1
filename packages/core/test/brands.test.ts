import { describe, expect, it } from 'vitest';
import {
  BRAND_IDS,
  BRANDS,
  DEFAULT_DOCS_URL,
  BrandIdSchema,
  brandForHost,
  brandForRequestHost,
  brandOrigin,
  isBrandId,
  isDevHost,
  pageTitle,
  withBrandOverrides,
  brandOverridesOf,
  documentTitle,
  type BrandHosts,
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

describe('brand hosts (BRAND_HOSTS)', () => {
  const hosts: BrandHosts = { tank: 'https://portal.tankco.example', pump: 'http://pumps.example:8080' };

  it.each<[string, BrandId]>([
    ['portal.tankco.example', 'tank'],
    ['PORTAL.TankCo.example:443', 'tank'],
    ['dev.portal.tankco.example', 'tank'],
    ['pumps.example', 'pump'],
    ['pumps.example:8080', 'pump'],
    ['tank.portal.example.com', 'tank'],
    ['blast.portal.example.com', 'blast'],
    ['tankco.example', 'default'],
    ['x.portal.tankco.example', 'default'],
    ['portal.tankco.example.evil.com', 'default'],
    ['', 'default'],
    ['__proto__', 'default'],
  ])('%s -> %s', (host, id) => {
    expect(brandForRequestHost(host, BRANDS, hosts).id).toBe(id);
  });

  it('an unparsable configured host matches nothing', () => {
    expect(brandForRequestHost('', BRANDS, { tank: 'not a url' }).id).toBe('default');
    expect(brandForRequestHost('not a url', BRANDS, { tank: 'not a url' }).id).toBe('default');
  });
});

describe('brandOrigin', () => {
  it.each<[string, BrandId, string]>([
    ['https://portal.example.com', 'default', 'https://portal.example.com'],
    ['https://portal.example.com', 'tank', 'https://tank.portal.example.com'],
    ['https://portal.example.com', 'air-quality', 'https://airquality.portal.example.com'],
    ['https://Portal.Example.com/app', 'remote-monitoring', 'https://remote.portal.example.com'],
    ['http://localhost:8080', 'default', 'http://localhost:8080'],
    ['http://localhost:8080', 'tank', 'http://tank.localhost:8080'],
    ['https://dev.portal.example.com', 'tank', 'https://dev.tank.portal.example.com'],
    ['https://dev-portal.example.com', 'carbon', 'https://dev-carbon.portal.example.com'],
  ])('%s, %s -> %s', (publicUrl, id, origin) => {
    expect(brandOrigin(BRANDS[id], publicUrl)).toBe(origin);
    // The brand the origin's host selects is the brand it was made for.
    expect(brandForHost(new URL(origin).host).id).toBe(id);
  });

  it("a brand's own host (BRAND_HOSTS) wins; other brands keep the prefix rule", () => {
    const hosts: BrandHosts = { tank: 'https://portal.tankco.example' };
    expect(brandOrigin(BRANDS.tank, 'https://portal.example.com', hosts)).toBe('https://portal.tankco.example');
    expect(brandOrigin(BRANDS.pump, 'https://portal.example.com', hosts)).toBe('https://pump.portal.example.com');
    expect(brandOrigin(BRANDS.default, 'https://portal.example.com', hosts)).toBe('https://portal.example.com');
  });

  it('follows an overridden prefix', () => {
    const brands = withBrandOverrides({ tank: { hostPrefix: 'cistern.' } });
    expect(brandOrigin(brands.tank, 'https://portal.example.com')).toBe('https://cistern.portal.example.com');
  });

  it('refuses a public address that is not http(s)', () => {
    expect(() => brandOrigin(BRANDS.tank, 'portal.example.com')).toThrow(/http/);
    expect(() => brandOrigin(BRANDS.tank, '')).toThrow(/http/);
  });
});

describe('brand ids', () => {
  it.each([...BRAND_IDS])('%s is a brand id', (id) => {
    expect(isBrandId(id)).toBe(true);
    expect(BrandIdSchema.parse(id)).toBe(id);
  });

  it.each<unknown>(['', 'Tank', 'tanker', '__proto__', 'constructor', 'toString', null, undefined, 7, {}, ['tank']])(
    '%j is not',
    (value) => {
      expect(isBrandId(value)).toBe(false);
      expect(BrandIdSchema.safeParse(value).success).toBe(false);
    },
  );
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

describe('documentTitle (HDR-03, HOME-09: one pattern for every page)', () => {
  it.each([
    ['Portal', 'Fleet', undefined, 'Portal - Fleet'],
    ['Portal', 'Settings', 'Pump 1', 'Portal - Pump 1: Settings'],
    ['Dev Portal', 'Profile', 'Account', 'Dev Portal - Account: Profile'],
    ['Portal', null, 'Pump 1', 'Portal'],
    ['Portal', '', null, 'Portal'],
  ] as const)('(%s, %s, %s) -> %s', (base, page, subject, title) => {
    expect(documentTitle(base, page, subject)).toBe(title);
  });
});

describe('brandOverridesOf', () => {
  it('answers the fields configuration changed, per brand, and {} for the built-in table', () => {
    expect(brandOverridesOf(BRANDS)).toEqual({});
    const overrides = { tank: { hideAccount: true, footerText: 'Tanks Ltd' }, carbon: { docsLink: '/docs/#carbon' } };
    expect(brandOverridesOf(withBrandOverrides(overrides))).toEqual(overrides);
    // A field set to its built-in value is no override.
    expect(brandOverridesOf(withBrandOverrides({ pump: { name: BRANDS.pump.name } }))).toEqual({});
  });
});
