/**
 * A map's tile layer when the tiles may not load (offline, a blocked or absent tile server): one
 * tile is asked for first (core probeTileUrl, once per page load and template, shared by every
 * map), and the layer goes under the markers only when it came. Otherwise the map keeps its
 * markers and says the tiles are unavailable (core MAP_TILES_UNAVAILABLE): the browser logs one
 * failed request, not one for each of the view's tiles. Imported by the Leaflet maps only (their
 * lazily loaded chunks).
 */
import { useEffect, useState } from 'react';
import L from 'leaflet';
import { probeTileUrl, type MapTiles } from '@portal/core';

const probes = new Map<string, Promise<boolean>>();

/** Whether the tile server answers: the probe tile of `template`, fetched once per page load (again after going back online). */
export function tilesAnswer(template: string): Promise<boolean> {
  let probe = probes.get(template);
  if (!probe) {
    probe = new Promise<boolean>((resolve) => {
      const image = new Image();
      image.onload = () => resolve(true);
      image.onerror = () => resolve(false);
      image.src = probeTileUrl(template);
    });
    probes.set(template, probe);
    void probe.then((ok) => {
      // Offline now, perhaps online later: the next map asks again once the browser is back online.
      if (!ok) window.addEventListener('online', () => probes.delete(template), { once: true });
    });
  }
  return probe;
}

/**
 * Puts the tiles under `map` once the probe tile loaded; answers true while they are unavailable
 * (the probe failed, or the layer's tiles failed before any loaded: the layer is taken off then,
 * so no more are asked for).
 */
export function useTileLayer(map: L.Map | null | undefined, tiles: MapTiles | null, maxZoom: number): boolean {
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    if (!map || !tiles) return;
    let live = true;
    let layer: L.TileLayer | null = null;
    void tilesAnswer(tiles.url).then((ok) => {
      if (!live) return;
      setUnavailable(!ok);
      if (!ok) return;
      const added = L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom });
      let loaded = false;
      added.on('tileload', () => {
        loaded = true;
      });
      added.on('tileerror', () => {
        if (loaded || !live) return;
        added.remove();
        setUnavailable(true);
      });
      layer = added.addTo(map);
    });
    return () => {
      live = false;
      layer?.remove();
    };
  }, [map, tiles, maxZoom]);
  return unavailable;
}
