/** Brands of the portal (spec 1 sections 1 and 3, DESIGN.md section 5, UI.md brand table). */

export const BRAND_IDS = [
  'default',
  'tow-and-blow',
  'blast',
  'tank',
  'pump',
  'carbon',
  'air-quality',
  'remote-monitoring',
] as const;

export type BrandId = (typeof BRAND_IDS)[number];

/** Every field of the spec's brand config (spec 1 section 3), plus our own identity and palette. */
export interface BrandConfig {
  id: BrandId;
  name: string;
  url: string;
  style: string;
  mainBrandImg: string;
  mainBrandHeight: number;
  allowSubBrand: boolean;
  hideFooter: boolean;
  footerText: string;
  hideDocs: boolean;
  docsLink: string;
  hideSupport: boolean;
  hideAccount: boolean;
  hidePlans: boolean;
  hideMarketingEmailSignup: boolean;
  allowMFA: boolean;
  allowAPI: boolean;
  faviconPrefix: string;
  showRegulatoryInfo: boolean;
  termsOfServiceURL: string;
  privacyPolicyURL: string;
  /** Host-name prefix that selects the brand; '' for the default brand. */
  hostPrefix: string;
  primary: string;
  accent: string;
}

/** The documentation page opened by Docs when a brand configures no docsLink. */
export const DEFAULT_DOCS_URL = '/docs/';

interface BrandSeed {
  name: string;
  hostPrefix: string;
  primary: string;
  accent: string;
  mainBrandHeight?: number;
  equipment?: boolean;
  extra?: Partial<BrandConfig>;
}

const SEEDS = {
  default: {
    name: 'Portal',
    hostPrefix: '',
    primary: '#1f4e79',
    accent: '#00a3a3',
    extra: { allowSubBrand: true, allowMFA: true, allowAPI: true, showRegulatoryInfo: true },
  },
  'tow-and-blow': {
    name: 'Tow & Blow',
    hostPrefix: 'towandblow.',
    primary: '#c2410c',
    accent: '#1f2937',
    equipment: true,
  },
  blast: { name: 'Blast', hostPrefix: 'blast.', primary: '#b91c1c', accent: '#111827', equipment: true },
  tank: { name: 'Tank', hostPrefix: 'tank.', primary: '#0f766e', accent: '#134e4a', equipment: true },
  pump: { name: 'Pump', hostPrefix: 'pump.', primary: '#1d4ed8', accent: '#0c4a6e', equipment: true },
  carbon: {
    name: 'Carbon',
    hostPrefix: 'carbon.',
    primary: '#111827',
    accent: '#6b7280',
    mainBrandHeight: 24,
    extra: { hidePlans: true, hideSupport: true, hideFooter: true },
  },
  'air-quality': {
    name: 'Air Quality',
    hostPrefix: 'airquality.',
    primary: '#15803d',
    accent: '#0284c7',
    mainBrandHeight: 41,
    extra: { hidePlans: true },
  },
  'remote-monitoring': {
    name: 'Remote Monitoring',
    hostPrefix: 'remote.',
    primary: '#6d28d9',
    accent: '#312e81',
    extra: { allowSubBrand: true, allowMFA: true, docsLink: '/docs/#remote-monitoring' },
  },
} as const satisfies Record<BrandId, BrandSeed>;

function makeBrand(id: BrandId, seed: BrandSeed): BrandConfig {
  const base = `/brands/${id}/`;
  return {
    id,
    name: seed.name,
    url: seed.hostPrefix === '' ? '/' : `/?brand=${id}`,
    style: `${base}style.css`,
    mainBrandImg: `${base}logo.svg`,
    mainBrandHeight: seed.mainBrandHeight ?? 42,
    allowSubBrand: false,
    hideFooter: false,
    footerText: seed.equipment ? `${seed.name} remote monitoring` : '',
    hideDocs: seed.equipment === true,
    docsLink: '',
    hideSupport: false,
    hideAccount: false,
    hidePlans: false,
    hideMarketingEmailSignup: seed.equipment === true,
    allowMFA: false,
    allowAPI: false,
    faviconPrefix: base,
    showRegulatoryInfo: false,
    termsOfServiceURL: '/legal/terms.html',
    privacyPolicyURL: '/legal/privacy.html',
    hostPrefix: seed.hostPrefix,
    primary: seed.primary,
    accent: seed.accent,
    ...seed.extra,
  };
}

/** The brand table: exactly eight brands. */
export const BRANDS: Readonly<Record<BrandId, BrandConfig>> = Object.fromEntries(
  BRAND_IDS.map((id) => [id, makeBrand(id, SEEDS[id])]),
) as Record<BrandId, BrandConfig>;

/** The development host's leading `dev.` / `dev-`. */
export const DEV_HOST = /^dev[.-]/i;

/** True on a development host (host names starting `dev.` or `dev-`). */
export function isDevHost(hostname: string): boolean {
  return DEV_HOST.test(hostname);
}

/** True when `value` is one of the eight brand ids. */
export function isBrandId(value: unknown): value is BrandId {
  return typeof value === 'string' && (BRAND_IDS as readonly string[]).includes(value);
}

/** Picks the brand for a host name by its prefix; anything unmatched is the default brand. A leading `dev.` / `dev-` is ignored. */
export function brandForHost(hostname: string, brands: Readonly<Record<BrandId, BrandConfig>> = BRANDS): BrandConfig {
  const host = hostname.toLowerCase().replace(DEV_HOST, '');
  for (const id of BRAND_IDS) {
    const brand = brands[id];
    if (brand.hostPrefix !== '' && host.startsWith(brand.hostPrefix)) return brand;
  }
  return brands.default;
}

/** The base page title: 'Portal', or 'Dev Portal' on the development host. */
export function pageTitle(hostname: string): string {
  return isDevHost(hostname) ? 'Dev Portal' : 'Portal';
}

/**
 * A page's document title, one pattern for every page (HDR-03, HOME-09): '{base} - {page}', or
 * '{base} - {subject}: {page}' for a page of something (a device, a group, the account); the base
 * alone while the page is not known.
 */
export function documentTitle(base: string, page?: string | null, subject?: string | null): string {
  if (!page) return base;
  return subject ? `${base} - ${subject}: ${page}` : `${base} - ${page}`;
}

/** Applies configuration overrides (partial fields per brand) over the built-in table. */
export function withBrandOverrides(
  overrides: Partial<Record<BrandId, Partial<Omit<BrandConfig, 'id'>>>>,
): Record<BrandId, BrandConfig> {
  return Object.fromEntries(BRAND_IDS.map((id) => [id, { ...BRANDS[id], ...overrides[id], id }])) as Record<
    BrandId,
    BrandConfig
  >;
}

/** Brand fields given by configuration over the built-in table, per brand id. */
export type BrandOverrides = Partial<Record<BrandId, Partial<Omit<BrandConfig, 'id'>>>>;

/**
 * The fields of `brands` that differ from the built-in table, per brand (none: {}): what the
 * server tells the web app, which applies them with withBrandOverrides (BRAND_OVERRIDES reaches
 * both sides).
 */
export function brandOverridesOf(brands: Readonly<Record<BrandId, BrandConfig>>): BrandOverrides {
  const overrides: BrandOverrides = {};
  for (const id of BRAND_IDS) {
    const changed = Object.entries(brands[id]).filter(
      ([key, value]) => key !== 'id' && JSON.stringify(value) !== JSON.stringify(BRANDS[id][key as keyof BrandConfig]),
    );
    if (changed.length > 0) overrides[id] = Object.fromEntries(changed) as Partial<Omit<BrandConfig, 'id'>>;
  }
  return overrides;
}
