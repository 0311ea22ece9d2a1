/**
 * Security headers on every answer, through @fastify/helmet: no MIME sniffing, no framing
 * (clickjacking), no referrer to other sites, and a content security policy that allows only the
 * portal's own scripts. Styles may be inline (the UI kit injects style elements); images may be
 * data: or blob: URLs (QR codes, charts) or map tiles from the configured tile server.
 *
 * Helmet's other defaults stay on (Cross-Origin-Opener-Policy and Cross-Origin-Resource-Policy
 * same-origin, Origin-Agent-Cluster, X-DNS-Prefetch-Control off, ...), with two exceptions: the
 * policy is ours alone (helmet's default directives add upgrade-insecure-requests, which would
 * send a self-hosted http:// tile server's images to https://), and Strict-Transport-Security
 * leaves out includeSubDomains (a portal on a company's apex domain must not force HTTPS on the
 * company's other hosts for a year).
 *
 * Registered before the other plugins (Fastify adds hooks in registration order): its onRequest
 * hook runs first, so an answer a later hook refuses (CSRF 403, rate limit 429) carries them too.
 */
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** The policy's directives; `imageSources` are added to img-src (the map tile server). */
function directives(imageSources: readonly string[]): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...imageSources],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

export function registerSecurityHeaders(app: FastifyInstance, imageSources: readonly string[] = []): void {
  void app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: directives(imageSources) },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: { maxAge: 365 * 24 * 60 * 60, includeSubDomains: false },
  });
}
