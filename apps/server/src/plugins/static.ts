/**
 * Serves the built web app (WEB_DIST). Any GET outside /api that is not a file gets index.html
 * (client-side routes); hashed files under /assets/ are cached for good, everything else is
 * revalidated (no-cache). Without a build, pages answer 503 with a one-line hint.
 *
 * The build writes a brotli (.br) and a gzip (.gz) copy beside each text file over 1 kB
 * (apps/web/vite.config.ts); a client gets the copy its Accept-Encoding prefers (br, then gzip),
 * with the file's own content type, else the file itself. Every answer says Vary: Accept-Encoding,
 * so a cache keeps each encoding apart. Nothing here is compressed per request (plugins/compression.ts
 * leaves these content types alone).
 *
 * With brand overrides configured (BRAND_OVERRIDES), index.html goes out with them in a JSON block
 * (`<script type="application/json" id="brand-overrides">`, data, not a script the page runs), so
 * the web app draws the brand the server mails and links with; the page is then sent as text,
 * read again each time (a rebuild is served at once), and its compressed copies are not used.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { NotFoundFallback } from './errors';

export const NOT_BUILT_MESSAGE = 'The web app is not built: run npm run build';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';
/** The build's own bookkeeping (Vite's manifest): never served. */
const BUILD_INTERNALS = '/.vite/';

/** The id of the JSON block carrying the brand overrides in index.html (apps/web/src/lib/brand.ts reads it). */
export const BRAND_OVERRIDES_ELEMENT_ID = 'brand-overrides';

/** index.html with the overrides as a JSON block before </head> ('<' escaped: the text cannot end the element). */
export function withBrandOverridesBlock(html: string, overrides: Readonly<Record<string, unknown>>): string {
  const json = JSON.stringify(overrides).replace(/</g, '\\u003c');
  const block = `<script type="application/json" id="${BRAND_OVERRIDES_ELEMENT_ID}">${json}</script>`;
  return html.includes('</head>') ? html.replace('</head>', () => `${block}</head>`) : `${block}${html}`;
}

/**
 * Registers static serving when `webDist` holds a build; returns the history fallback.
 * `brandOverrides`: the brand fields configured over the built-in table (none: {}).
 */
export async function registerStatic(
  app: FastifyInstance,
  webDist: string | null,
  brandOverrides: Readonly<Record<string, unknown>> = {},
): Promise<NotFoundFallback> {
  if (!webDist || !existsSync(join(webDist, 'index.html'))) {
    return (_request, reply) =>
      reply.code(503).type('text/plain; charset=utf-8').header('cache-control', NO_CACHE).send(NOT_BUILT_MESSAGE);
  }
  const overridden = Object.keys(brandOverrides).length > 0;
  const sendIndex = async (reply: FastifyReply) => {
    if (!overridden) return reply.header('cache-control', NO_CACHE).sendFile('index.html');
    const html = await readFile(join(webDist, 'index.html'), 'utf8');
    return reply
      .header('cache-control', NO_CACHE)
      .header('vary', 'Accept-Encoding')
      .type('text/html; charset=utf-8')
      .send(withBrandOverridesBlock(html, brandOverrides));
  };
  await app.register(fastifyStatic, {
    root: webDist,
    cacheControl: false,
    preCompressed: true,
    // With overrides, / and /index.html are the fallback's (the page with the overrides in it).
    ...(overridden ? { index: false as const } : {}),
    allowedPath: (pathName) =>
      !pathName.startsWith(BUILD_INTERNALS) && !(overridden && pathName.startsWith('/index.html')),
    // `path` is the file sent: the copy (.br, .gz) when one was chosen.
    setHeaders: (res, path) => {
      const rel = path.slice(webDist.length).replace(/\\/g, '/');
      res.setHeader('cache-control', rel.startsWith('/assets/') ? IMMUTABLE : NO_CACHE);
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
  return (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // A missing hashed asset is a real 404 (an old tab after a deploy), not a page; so is the build's manifest.
    if (path.startsWith('/assets/') || path.startsWith(BUILD_INTERNALS))
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return sendIndex(reply);
  };
}
