/**
 * Public addresses (DESIGN.md section 5, 'Links that leave the portal'; docs/operations.md,
 * 'Public addresses'): the origin every link that leaves the portal starts with, per brand, from
 * configuration only (PUBLIC_URL and BRAND_HOSTS), never from a request's Host header. Mails take
 * the brand of the user they go to, label QR codes the brand of their device, whether they are
 * made during a request or later (alerts, digests); core's brandOrigin holds the rule.
 */
import {
  brandForRequestHost,
  brandOrigin,
  isBrandId,
  type BrandConfig,
  type BrandHosts,
  type BrandId,
} from '@portal/core';

export interface PublicAddresses {
  /** True when PUBLIC_URL is set; otherwise links point at this machine's localhost (no phone reaches it). */
  readonly configured: boolean;
  /** The origin of a brand's links, e.g. https://tank.portal.example.com (no trailing slash); an unknown id is the default brand's. */
  originOf(brand: string): string;
  /** The brand of a stored brand id; an id the server does not know is the default brand. */
  brand(id: string): BrandConfig;
  /** The brand of a request's host name: a brand's own host (BRAND_HOSTS), else by prefix. */
  brandOfHost(hostname: string): BrandConfig;
}

export interface PublicAddressOptions {
  brands: Readonly<Record<BrandId, BrandConfig>>;
  /** PUBLIC_URL, or undefined when it is not configured. */
  publicUrl: string | undefined;
  /** Without PUBLIC_URL: http://localhost:{listening port}, read when a link is made (the port may be ephemeral). */
  localUrl: () => string;
  /** BRAND_HOSTS: the origins of brands whose hosts are not a prefix of PUBLIC_URL. */
  brandHosts?: BrandHosts;
}

export function createPublicAddresses(options: PublicAddressOptions): PublicAddresses {
  const { brands, publicUrl } = options;
  const brandHosts = options.brandHosts ?? {};
  const brand = (id: string): BrandConfig => (isBrandId(id) ? brands[id] : brands.default);
  return {
    configured: publicUrl !== undefined,
    originOf: (id) => brandOrigin(brand(id), publicUrl ?? options.localUrl(), brandHosts),
    brand,
    brandOfHost: (hostname) => brandForRequestHost(hostname, brands, brandHosts),
  };
}
