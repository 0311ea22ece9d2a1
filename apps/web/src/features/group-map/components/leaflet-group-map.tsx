/** The Leaflet part of the dashboard map widget (loaded lazily by group-map-widget.tsx). */
import { useEffect, useRef, useState } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { MAP_DEFAULTS, MAP_LOAD_ERROR, SEVERITY_COLOURS, type GroupDataDevice } from '@portal/core';
import { useMapTiles } from '@/lib/map-tiles';

interface Props {
  devices: readonly GroupDataDevice[];
  loading: boolean;
}

export default function LeafletGroupMap({ devices }: Props) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layerRef = useRef<L.LayerGroup | null>(null);
  const [failed, setFailed] = useState(false);
  const [ready, setReady] = useState(false);
  const tiles = useMapTiles();

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let map: L.Map;
    try {
      map = L.map(container, {
        center: [MAP_DEFAULTS.centre.lat, MAP_DEFAULTS.centre.lng],
        zoom: MAP_DEFAULTS.zoom,
        preferCanvas: true,
        scrollWheelZoom: false,
      });
    } catch {
      setFailed(true);
      return;
    }
    mapRef.current = map;
    layerRef.current = L.layerGroup().addTo(map);
    setReady(true);
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(container);
    return () => {
      resize.disconnect();
      map.remove();
      mapRef.current = null;
    };
  }, []);

  useEffect(() => {
    const map = mapRef.current;
    if (!ready || !map || !tiles) return;
    const layer = L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(map);
    return () => {
      layer.remove();
    };
  }, [ready, tiles]);

  useEffect(() => {
    const map = mapRef.current;
    const layer = layerRef.current;
    if (!ready || !map || !layer) return;
    layer.clearLayers();
    const points: L.LatLng[] = [];
    for (const d of devices) {
      if (d.lat === null || d.lon === null) continue;
      const at = L.latLng(d.lat, d.lon);
      points.push(at);
      L.circleMarker(at, {
        radius: 8,
        color: '#fff',
        weight: 2,
        fillColor: SEVERITY_COLOURS[d.severity],
        fillOpacity: 1,
      })
        .bindTooltip(d.name)
        .addTo(layer);
    }
    if (points.length === 1) map.setView(points[0]!, MAP_DEFAULTS.singleMarkerZoom);
    else if (points.length > 1) map.fitBounds(L.latLngBounds(points), { padding: [24, 24] });
  }, [ready, devices]);

  if (failed) return <p className="gm-error">{MAP_LOAD_ERROR}</p>;
  return <div ref={containerRef} className="gm-map" role="region" aria-roledescription="map" aria-label="Group map" />;
}
