/**
 * Where the map tiles come from: the server's MAP_TILE_URL (a Leaflet URL template, for a
 * self-hosted tile server in an offline installation; OpenStreetMap's by default), read once
 * from GET /api/map-tiles. Markers never depend on tiles, so a tile server that cannot be
 * reached only leaves the map's background empty.
 */
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_MAP_TILES, type MapTiles } from '@portal/core';
import { api } from './api';
import * as queryKeys from '@/lib/query-keys';

export function useMapTiles(): MapTiles | null {
  const query = useQuery({
    queryKey: queryKeys.mapTiles,
    queryFn: ({ signal }) => api.get<MapTiles>('/map-tiles', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
  if (query.isError) return DEFAULT_MAP_TILES;
  return query.data ?? null;
}
