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

const DEV_HOST = /^dev[.-]/i;

/** True on a development host (host names starting `dev.` or `dev-`). */
export function isDevHost(hostname: string): boolean {
  return DEV_HOST.test(hostname);
}

/** True when `value` is one of the eight brand ids. */
export function isBrandId(value: unknown): value is BrandId {
  return typeof value === 'string' && (BRAND_IDS as readonly string[]).includes(value);
}

/**
 * The origins of brands whose hosts are not a prefix of the public address (BRAND_HOSTS), e.g.
 * `{ tank: 'https://portal.tankco.example' }`: http(s) origins, no path.
 */
export type BrandHosts = Partial<Record<BrandId, string>>;

/** An http(s) address's scheme ('https:') and host (with its port), lower-cased; null when it is none. */
function schemeAndHost(url: string): { protocol: string; host: string } | null {
  const match = /^(https?:)\/\/(?:[^@/?#]*@)?([^/?#]+)/i.exec(url);
  return match ? { protocol: match[1]!.toLowerCase(), host: match[2]!.toLowerCase() } : null;
}

/** A host without its port ('portal.example.com:8443' -> 'portal.example.com'). */
const withoutPort = (host: string): string => host.replace(/:\d*$/, '');

/**
 * Picks the brand for a host name: a brand's own host (BRAND_HOSTS) first, then by prefix;
 * anything unmatched is the default brand. A leading `dev.` / `dev-` is ignored.
 */
export function brandForHost(
  hostname: string,
  brands: Readonly<Record<BrandId, BrandConfig>> = BRANDS,
  brandHosts: BrandHosts = {},
): BrandConfig {
  const host = withoutPort(hostname.toLowerCase()).replace(DEV_HOST, '');
  for (const id of BRAND_IDS) {
    const own = brandHosts[id] === undefined ? null : schemeAndHost(brandHosts[id]);
    if (own !== null && withoutPort(own.host) === host) return brands[id];
  }
  for (const id of BRAND_IDS) {
    const brand = brands[id];
    if (brand.hostPrefix !== '' && host.startsWith(brand.hostPrefix)) return brand;
  }
  return brands.default;
}

/**
 * The origin of the links of a brand (DESIGN.md section 5, 'Links that leave the portal'): its
 * own host when BRAND_HOSTS names one, else the public address with the brand's prefix before its
 * host (after a leading `dev.` / `dev-`), e.g. https://tank.portal.example.com. The default
 * brand's is the public address's origin. Built from configuration only, never from a request.
 */
export function brandOrigin(brand: BrandConfig, publicUrl: string, brandHosts: BrandHosts = {}): string {
  const own = brandHosts[brand.id];
  if (own !== undefined) return own;
  const base = schemeAndHost(publicUrl);
  if (!base) throw new Error(`Not an http(s) address: ${publicUrl}`);
  const dev = DEV_HOST.exec(base.host)?.[0] ?? '';
  return `${base.protocol}//${dev}${brand.hostPrefix}${base.host.slice(dev.length)}`;
}

/** The base page title: 'Portal', or 'Dev Portal' on the development host. */
export function pageTitle(hostname: string): string {
  return isDevHost(hostname) ? 'Dev Portal' : 'Portal';
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
