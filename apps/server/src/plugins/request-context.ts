/**
 * What every request carries besides its body: its brand (by host name: a brand's own configured
 * host, else its prefix) and the origin of that brand's links. The origin comes from the
 * configured public addresses, never from the Host header, so a forged Host header cannot point a
 * link at another site; mails about a user or a device use that user's or device's brand instead
 * (public-addresses.ts), this one only answers the request itself (an invitation to an address
 * without an account, the billing portal's address).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BrandConfig } from '@portal/core';
import type { PublicAddresses } from '../public-addresses';

declare module 'fastify' {
  interface FastifyRequest {
    brand: BrandConfig;
    linkOrigin: string;
  }
}

export function registerRequestContext(app: FastifyInstance, addresses: PublicAddresses): void {
  app.decorateRequest('brand', {
    getter(this: FastifyRequest) {
      return addresses.brandOfHost(this.hostname ?? '');
    },
  });
  app.decorateRequest('linkOrigin', {
    getter(this: FastifyRequest) {
      return addresses.originOf(this.brand.id);
    },
  });
}
