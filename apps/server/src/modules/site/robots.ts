/**
 * /robots.txt: crawlers may index the public pages (sign-in, sign-up, the FCC statement, legal
 * pages and the user guide) and fetch what they need to render them; not the API, the signed-in
 * app, or one-time links (e-mail verification, password reset) (docs/decisions.md, 'robots.txt').
 * The longest matching rule wins (RFC 9309); `$` ends a path.
 */
import type { FastifyInstance } from 'fastify';

export const ROBOTS_TXT = `# Public pages may be indexed; the API, the signed-in app and one-time links may not.
User-agent: *
Allow: /$
Allow: /login$
Allow: /signup$
Allow: /fcc$
Allow: /legal/
Allow: /docs/
Allow: /assets/
Allow: /brands/
Allow: /static-page.css
Disallow: /api/
Disallow: /
`;

export function registerRobotsRoute(app: FastifyInstance): void {
  app.get('/robots.txt', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(ROBOTS_TXT),
  );
}
