import { useEffect, useRef, useState } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import {
  MAP_DEFAULTS,
  MAP_LOAD_ERROR,
  MAP_TILES_UNAVAILABLE,
  SEVERITY_COLOURS,
  formatDateTime,
  gpsAccuracyRadiusMetres,
  type MapSeverity,
} from '@portal/core';
import { useMapTiles } from '@/lib/map-tiles';
import { useTileLayer } from '@/lib/tile-layer';
import './cards.css';

export interface MapCardProps {
  lat: number | null;
  lon: number | null;
  hdop: number | null;
  severity: MapSeverity;
  label: string;
  ts: number | null;
}

interface MapParts {
  map: L.Map;
  marker: L.CircleMarker;
  accuracy: L.Circle;
  /** Whether the map has been centred on a fix yet. */
  placed: boolean;
}

const MARKER_RADIUS_PX = 9;
const RING = '#ffffff';
const COORD_DP = 4;
/** On the first fix the accuracy circle's diameter takes about this share of the map's height... */
const ACCURACY_SHARE = 0.4;
/** ...but the map never zooms in closer than this. */
const MAX_FIRST_ZOOM = 17;

/** The zoom for the first fix: close enough that the accuracy circle shows around the marker. */
function firstZoom(map: L.Map, at: L.LatLng, radiusM: number): number {
  if (radiusM <= 0 || map.getSize().y === 0) return MAP_DEFAULTS.singleMarkerZoom;
  const zoom = map.getBoundsZoom(at.toBounds((2 * radiusM) / ACCURACY_SHARE), false);
  return Math.max(0, Math.min(MAX_FIRST_ZOOM, zoom));
}

/** What a screen reader hears for the map: the position and, when known, its accuracy. */
function positionText(lat: number, lon: number, radiusM: number): string {
  const where = `Position ${lat.toFixed(COORD_DP)}, ${lon.toFixed(COORD_DP)}`;
  return radiusM > 0 ? `${where}, accuracy ${Math.round(radiusM)} m` : where;
}

/** The marker's tooltip: the label and the time of the fix, built as nodes so the label is never read as HTML. */
function tooltipContent(label: string, ts: number | null): HTMLElement {
  const box = document.createElement('div');
  const name = box.appendChild(document.createElement('strong'));
  name.textContent = label;
  if (ts !== null && Number.isFinite(ts)) {
    const time = box.appendChild(document.createElement('div'));
    time.className = 'dd-map__tooltip-time';
    time.textContent = formatDateTime(ts * 1000);
  }
  return box;
}

/**
 * The Leaflet map of the Map card (map-frame.tsx, which loads this module lazily): created once,
 * then moved and restyled as the props change. Everything is drawn as vectors (no marker images),
 * so the marker and its accuracy circle show even when no tile loads.
 */
export function LeafletMap({ lat, lon, hdop, severity, label, ts }: MapCardProps & { lat: number; lon: number }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const partsRef = useRef<MapParts | null>(null);
  const [failed, setFailed] = useState(false);
  const [ready, setReady] = useState(false);
  const tiles = useMapTiles();
  const radiusM = gpsAccuracyRadiusMetres(hdop ?? Number.NaN);
  const colour = SEVERITY_COLOURS[severity];
  const description = positionText(lat, lon, radiusM);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let map: L.Map | null = null;
    let parts: MapParts;
    try {
      const centre = L.latLng(MAP_DEFAULTS.centre.lat, MAP_DEFAULTS.centre.lng);
      // Wheel zoom only once the map has focus, so the wheel scrolls the page past it.
      map = L.map(container, { center: centre, zoom: MAP_DEFAULTS.singleMarkerZoom, scrollWheelZoom: false });
      const accuracy = L.circle(centre, { radius: 0, weight: 1, opacity: 0.6, fillOpacity: 0.15, interactive: false });
      const marker = L.circleMarker(centre, {
        radius: MARKER_RADIUS_PX,
        color: RING,
        weight: 3,
        opacity: 1,
        fillOpacity: 1,
        className: 'dd-map__marker',
      });
      accuracy.addTo(map);
      marker.bindTooltip('', { direction: 'top', offset: [0, -MARKER_RADIUS_PX] }).addTo(map);
      const wheel = map.scrollWheelZoom;
      map.on('focus click', () => wheel.enable());
      map.on('blur', () => wheel.disable());
      parts = { map, marker, accuracy, placed: false };
    } catch {
      try {
        map?.remove();
      } catch {
        // A map that failed half-way may not come apart cleanly either; the error text replaces it.
      }
      setFailed(true);
      return;
    }
    partsRef.current = parts;
    setReady(true);
    // The card may be laid out (or resized) after the map measured it.
    const resize = new ResizeObserver(() => parts.map.invalidateSize());
    resize.observe(container);
    return () => {
      resize.disconnect();
      parts.map.remove();
      partsRef.current = null;
    };
  }, []);

  // The tiles go under the markers once the map exists, the server has said where they come from
  // and the tile server answers; if it does not, the marker stays and the card says so.
  const tilesUnavailable = useTileLayer(ready ? partsRef.current?.map : null, tiles, 19);

  useEffect(() => {
    const parts = partsRef.current;
    if (!parts) return;
    const at = L.latLng(lat, lon);
    parts.marker.setLatLng(at);
    parts.accuracy.setLatLng(at).setRadius(radiusM);
    // The first fix sets the zoom; later fixes only recentre, keeping the zoom the user chose.
    const zoom = parts.placed ? parts.map.getZoom() : firstZoom(parts.map, at, radiusM);
    parts.placed = true;
    parts.map.setView(at, zoom, { animate: false });
  }, [lat, lon, radiusM]);

  useEffect(() => {
    const parts = partsRef.current;
    if (!parts) return;
    parts.marker.setStyle({ fillColor: colour });
    parts.accuracy.setStyle({ color: colour, fillColor: colour });
    parts.marker.setTooltipContent(tooltipContent(label, ts));
  }, [colour, label, ts]);

  if (failed) {
    return (
      <div className="dd-card-message">
        <p className="dd-map__error">{MAP_LOAD_ERROR}</p>
        <p className="dd-map__fallback">{description}</p>
      </div>
    );
  }
  return (
    <>
      <div
        ref={containerRef}
        className="dd-map__canvas"
        role="region"
        aria-roledescription="map"
        aria-label={description}
      />
      {tilesUnavailable && (
        <p className="map-tiles-note" role="status">
          {MAP_TILES_UNAVAILABLE}
        </p>
      )}
    </>
  );
}
