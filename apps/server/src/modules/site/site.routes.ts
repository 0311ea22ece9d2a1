/** What the web app reads of the site's configuration at run time (the map tile server). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MapTiles } from '@portal/core';

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
}
