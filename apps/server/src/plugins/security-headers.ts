/**
 * Security headers on every answer: no MIME sniffing, no framing (clickjacking), no referrer to
 * other sites, and a content security policy that allows only the portal's own scripts. Styles
 * may be inline (the UI kit injects style elements); images may be data: URLs (QR codes) or map
 * tiles from the configured tile server.
 */
import type { FastifyInstance } from 'fastify';

/** The policy; `imageSources` are added to img-src (the map tile server). */
export function contentSecurityPolicy(imageSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...imageSources].join(' '),
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function registerSecurityHeaders(app: FastifyInstance, imageSources: readonly string[] = []): void {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    'content-security-policy': contentSecurityPolicy(imageSources),
    'cross-origin-opener-policy': 'same-origin',
  };
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(headers)) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    return payload;
  });
}
