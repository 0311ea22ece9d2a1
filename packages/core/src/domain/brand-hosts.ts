/**
 * The brands' public hosts (DESIGN.md section 5, 'Links that leave the portal'): the server's rules
 * for BRAND_HOSTS, a brand served on a host that is not a prefix of the public address. Apart from
 * brands.ts so the web app, which picks its brand by prefix only (brandForHost), does not load them.
 */
import { BRAND_IDS, DEV_HOST, brandForHost, type BrandConfig, type BrandId } from './brands';

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
 * The brand of a request's host name: a brand's own host (BRAND_HOSTS) first, then by prefix
 * (brandForHost); anything unmatched is the default brand. A leading `dev.` / `dev-` is ignored.
 */
export function brandForRequestHost(
  hostname: string,
  brands: Readonly<Record<BrandId, BrandConfig>>,
  brandHosts: BrandHosts = {},
): BrandConfig {
  const host = withoutPort(hostname.toLowerCase()).replace(DEV_HOST, '');
  for (const id of BRAND_IDS) {
    const own = brandHosts[id] === undefined ? null : schemeAndHost(brandHosts[id]);
    if (own !== null && withoutPort(own.host) === host) return brands[id];
  }
  return brandForHost(host, brands);
}

/**
 * The origin of the links of a brand: its own host when BRAND_HOSTS names one, else the public
 * address with the brand's prefix before its host (after a leading `dev.` / `dev-`), e.g.
 * https://tank.portal.example.com. The default brand's is the public address's origin. Built from
 * configuration only, never from a request.
 */
export function brandOrigin(brand: BrandConfig, publicUrl: string, brandHosts: BrandHosts = {}): string {
  const own = brandHosts[brand.id];
  if (own !== undefined) return own;
  const base = schemeAndHost(publicUrl);
  if (!base) throw new Error(`Not an http(s) address: ${publicUrl}`);
  const dev = DEV_HOST.exec(base.host)?.[0] ?? '';
  return `${base.protocol}//${dev}${brand.hostPrefix}${base.host.slice(dev.length)}`;
}
