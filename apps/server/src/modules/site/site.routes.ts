/** What the web app reads of the site's configuration at run time (the map tile server), and the user guide. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MapTiles } from '@portal/core';
import { userGuidePages } from './user-guide';

const MapTilesSchema = z.object({ url: z.string(), attribution: z.string() });

export function registerSiteRoutes(app: FastifyInstance, site: { mapTiles: MapTiles }): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/map-tiles',
    {
      schema: {
        tags: ['system'],
        summary: 'The map tile server (MAP_TILE_URL) and its attribution',
        response: { 200: MapTilesSchema },
      },
    },
    () => site.mapTiles,
  );

  // The Docs link's page: the user guide for the brand of the host (a page, not part of the API).
  const guide = userGuidePages();
  app.get('/docs/', { schema: { hide: true } }, (request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(guide(request.brand)),
  );
}
