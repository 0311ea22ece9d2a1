/**
 * What every request carries besides its body: its brand (by host name) and the origin to put in
 * e-mailed links. Links use the request's own origin only when it is the public host or a brand
 * prefix of it, so a forged Host header cannot point a reset link at another site.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BRAND_IDS, brandForHost, type BrandConfig, type BrandId } from '@portal/core';

declare module 'fastify' {
  interface FastifyRequest {
    brand: BrandConfig;
    linkOrigin: string;
  }
}

export interface RequestContextOptions {
  brands: Readonly<Record<BrandId, BrandConfig>>;
  /** The public base URL (no trailing slash); read per request because the port may be ephemeral. */
  publicUrl: () => string;
}

/** Host names that may appear in links: the public host and each brand prefix of it (also dev.). */
export function allowedLinkHosts(publicHost: string, brands: Readonly<Record<BrandId, BrandConfig>>): Set<string> {
  const hosts = new Set<string>([publicHost]);
  for (const id of BRAND_IDS) {
    const prefix = brands[id].hostPrefix;
    if (prefix) hosts.add(`${prefix}${publicHost}`);
  }
  for (const host of [...hosts]) hosts.add(`dev.${host}`);
  return hosts;
}

export function linkOriginFor(
  request: Pick<FastifyRequest, 'host'>,
  publicUrl: string,
  brands: Readonly<Record<BrandId, BrandConfig>>,
): string {
  const base = new URL(publicUrl);
  const host = (request.host ?? '').toLowerCase();
  return allowedLinkHosts(base.host, brands).has(host) ? `${base.protocol}//${host}` : base.origin;
}

export function registerRequestContext(app: FastifyInstance, options: RequestContextOptions): void {
  app.decorateRequest('brand', {
    getter(this: FastifyRequest) {
      return brandForHost(this.hostname ?? '', options.brands);
    },
  });
  app.decorateRequest('linkOrigin', {
    getter(this: FastifyRequest) {
      return linkOriginFor(this, options.publicUrl(), options.brands);
    },
  });
}
