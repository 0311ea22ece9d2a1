/**
 * The Leaflet part of the dashboard map widget (loaded lazily by group-map-widget.tsx): the
 * group's devices as dots in their severity colour with a white ring, clustered by supercluster
 * (a cluster in its most severe member's colour, sized by its count), a toggle for clustering, a
 * popup per device with a Device Page link, and auto-fit to the markers that pauses while the
 * pointer is over the map and for 5 s after it leaves (spec 1 section 2).
 *
 * Everything is drawn as vectors (canvas dots, CSS bubbles), so it shows when no tile loads. Dots
 * go on one canvas, so 10,000 of them still pan smoothly; clusters (and, unclustered, the dots near
 * the view) are recomputed only when a move or zoom ends. The dot canvas is dot-canvas.ts, the
 * clusters cluster-layer.ts, the popup device-popup.ts; this file is the component that joins them.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import {
  DISABLE_CLUSTERING,
  ENABLE_CLUSTERING,
  MAP_DEFAULTS,
  MAP_SEVERITIES,
  autoFitAllowed,
  mapMarker,
  markerView,
  MAP_TILES_UNAVAILABLE,
  NO_DEVICES_IN_GROUP,
  type AutoFitPointer,
  type GroupDataDevice,
  type MapMarker,
  type MapSeverity,
} from '@portal/core';
import { useMapTiles } from '@/lib/map-tiles';
import { useTileLayer } from '@/lib/tile-layer';
import { BubbleLayer, buildIndex, type Bubble } from './cluster-layer';
import { popupContent } from './device-popup';
import { DotCanvas } from './dot-canvas';
import { MapLoadError } from './map-load-error';

export interface LeafletGroupMapProps {
  devices: readonly GroupDataDevice[];
  loading: boolean;
}

/** A marker and the device it stands for. */
interface Placed {
  marker: MapMarker;
  device: GroupDataDevice;
}

const DOT_RADIUS_PX = 7;
const RING = '#ffffff';
const MAX_ZOOM = 19;
/** Room kept around the markers when fitting, so the outer dots are not cut by the edge. */
const FIT_PADDING = L.point(32, 32);
/** Clusters are computed for a bit more than the view, so a short pan shows no empty edge. */
const VIEW_PAD = 0.1;
/** Unclustered dots are drawn as far around the view as the canvas reaches (its padding, 0.5). */
const CANVAS_PAD = 0.5;
/** How many dots that left the canvas are taken off the map in one frame. */
const REMOVE_SLICE = 1000;
const NO_DEVICES: readonly GroupDataDevice[] = [];
const POPUP_OPTIONS: L.PopupOptions = { autoPanPadding: [24, 24], maxWidth: 260 };

function placeDevices(devices: readonly GroupDataDevice[]): { placed: Placed[]; unplaced: number } {
  const placed: Placed[] = [];
  for (const device of devices) {
    const marker = mapMarker(device);
    if (marker) placed.push({ marker, device });
  }
  return { placed, unplaced: devices.length - placed.length };
}

/** Moves the map to fit the markers: the default view with none, zoom 15 for one, else their box. */
function fitTo(map: L.Map, placed: readonly Placed[]): void {
  const view = markerView(placed.map((p) => p.marker.position));
  if (view.kind === 'centre') {
    map.setView([view.centre.lat, view.centre.lng], view.zoom, { animate: false });
  } else {
    const bounds = L.latLngBounds([view.south, view.west], [view.north, view.east]);
    map.fitBounds(bounds, { padding: FIT_PADDING, maxZoom: MAP_DEFAULTS.singleMarkerZoom, animate: false });
  }
}

/** What a screen reader hears for the map: how many devices it shows and how many of each severity. */
function mapDescription(placed: readonly Placed[], unplaced: number, loading: boolean): string {
  if (loading) return 'Map of the group, loading';
  const tally = new Map<MapSeverity, number>();
  for (const { marker } of placed) tally.set(marker.severity, (tally.get(marker.severity) ?? 0) + 1);
  const parts = MAP_SEVERITIES.filter((s) => tally.has(s)).map((s) => `${tally.get(s)} ${s}`);
  const shown = `Map of ${placed.length} ${placed.length === 1 ? 'device' : 'devices'}`;
  const without = unplaced > 0 ? `; ${unplaced} without a position` : '';
  return parts.length > 0 ? `${shown}: ${parts.join(', ')}${without}` : `${shown}${without}`;
}

export default function LeafletGroupMap({ devices, loading }: LeafletGroupMapProps) {
  const wrapperRef = useRef<HTMLDivElement>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const [failed, setFailed] = useState(false);
  const [clustering, setClustering] = useState(true);
  const [tipDismissed, setTipDismissed] = useState(false);
  const pointer = useRef<AutoFitPointer>({ inside: false, leftAtMs: null });
  /** The one popup, and the device it shows. */
  const popupRef = useRef<{ popup: L.Popup; deviceid: string | null } | null>(null);
  const navigate = useNavigate();
  const tiles = useMapTiles();
  const list = devices.length === 0 ? NO_DEVICES : devices;
  const { placed, unplaced } = useMemo(() => placeDevices(list), [list]);
  const placedRef = useRef(placed);
  placedRef.current = placed;

  // The map, created once.
  useEffect(() => {
    const container = containerRef.current;
    const wrapper = wrapperRef.current;
    if (!container || !wrapper) return;
    let created: L.Map;
    try {
      created = L.map(container, {
        center: [MAP_DEFAULTS.centre.lat, MAP_DEFAULTS.centre.lng],
        zoom: MAP_DEFAULTS.zoom,
        maxZoom: MAX_ZOOM,
        preferCanvas: true,
        renderer: new DotCanvas({ padding: CANVAS_PAD, tolerance: 4 }),
        // Wheel zoom only once the map has focus, so the wheel scrolls the dashboard past it.
        scrollWheelZoom: false,
      });
    } catch {
      setFailed(true);
      return;
    }
    const wheel = created.scrollWheelZoom;
    created.on('focus click', () => wheel.enable());
    created.on('blur', () => wheel.disable());
    // The view and what is drawn, as data attributes (the browser tests and the bench read them).
    const note = () => {
      const c = created.getCenter();
      container.dataset.zoom = String(created.getZoom());
      container.dataset.centre = `${c.lat.toFixed(5)},${c.lng.toFixed(5)}`;
    };
    created.on('moveend', note);
    note();
    // Auto-fit pauses while the pointer is over the widget (map or its buttons) and 5 s after it leaves.
    const enter = () => {
      pointer.current = { inside: true, leftAtMs: pointer.current.leftAtMs };
    };
    const leave = () => {
      pointer.current = { inside: false, leftAtMs: Date.now() };
    };
    wrapper.addEventListener('pointerenter', enter);
    wrapper.addEventListener('pointerleave', leave);
    // The grid may lay the widget out (or resize it) after the map measured it; until someone
    // has pointed at the map, the fit follows the new size.
    const resize = new ResizeObserver(() => {
      created.invalidateSize();
      const p = pointer.current;
      if (!p.inside && p.leftAtMs === null) fitTo(created, placedRef.current);
    });
    resize.observe(container);
    setMap(created);
    return () => {
      resize.disconnect();
      wrapper.removeEventListener('pointerenter', enter);
      wrapper.removeEventListener('pointerleave', leave);
      created.remove();
      popupRef.current = null;
      setMap(null);
    };
  }, []);

  // The tiles go under the markers once the server has said where they come from and the tile
  // server answers; if it does not, the markers stay and the widget says so.
  const tilesUnavailable = useTileLayer(map, tiles, MAX_ZOOM);

  // Auto-fit on new data, unless the pointer is (or was in the last 5 s) over the map.
  useEffect(() => {
    if (!map) return;
    if (autoFitAllowed(pointer.current, Date.now())) fitTo(map, placed);
  }, [map, placed]);

  // The markers: every dot at once without clustering; with it, the clusters of the view, again
  // after each move or zoom.
  useEffect(() => {
    const container = containerRef.current;
    if (!map || !container) return;
    const layer = L.layerGroup().addTo(map);
    const popup = (popupRef.current ??= { popup: L.popup(POPUP_OPTIONS), deviceid: null });
    const openPopup = (p: Placed) => {
      popup.deviceid = p.marker.id;
      popup.popup
        .setLatLng([p.marker.position.lat, p.marker.position.lng])
        .setContent(popupContent(p.device, p.marker.label, navigate));
    };
    // An open popup stays open through new data: it follows its device, or closes when the device has gone.
    if (popup.popup.isOpen()) {
      const current = placed.find((p) => p.marker.id === popup.deviceid);
      if (current) openPopup(current);
      else popup.popup.close();
    }

    const dot = (p: Placed) =>
      L.circleMarker([p.marker.position.lat, p.marker.position.lng], {
        radius: DOT_RADIUS_PX,
        color: RING,
        weight: 2,
        opacity: 1,
        fillColor: p.marker.colour,
        fillOpacity: 1,
      }).on('click', () => {
        openPopup(p);
        popup.popup.openOn(map);
      });

    /** The dots drawn, by marker index: kept while still wanted after a move. */
    let shown = new Map<number, L.CircleMarker>();
    /** Dots no longer wanted and off the canvas (unclustered), taken off the map a slice per frame. */
    const leaving = new Map<number, L.CircleMarker>();
    let removing = 0;
    const removeSome = () => {
      removing = 0;
      let n = 0;
      for (const [i, old] of leaving) {
        if (n >= REMOVE_SLICE) break;
        layer.removeLayer(old);
        leaving.delete(i);
        n += 1;
      }
      if (leaving.size > 0) removing = requestAnimationFrame(removeSome);
    };
    /**
     * Draws the dots of these marker indexes (and no others), keeping those drawn already. With
     * `later`, the others are beyond the canvas (not drawn anyway) and leave over the next frames.
     */
    const showDots = (wanted: Iterable<number>, later = false) => {
      const next = new Map<number, L.CircleMarker>();
      for (const i of wanted) {
        const kept = shown.get(i) ?? leaving.get(i);
        const p = placed[i];
        if (kept) {
          next.set(i, kept);
          leaving.delete(i);
        } else if (p) next.set(i, dot(p).addTo(layer));
      }
      for (const [i, old] of shown) {
        if (next.has(i)) continue;
        if (later) leaving.set(i, old);
        else layer.removeLayer(old);
      }
      shown = next;
      if (leaving.size > 0 && !removing) removing = requestAnimationFrame(removeSome);
      container.dataset.markers = String(next.size);
    };

    if (!clustering) {
      // Every dot in (or near) the view, again after each move or zoom: at a city's zoom only a few.
      const drawDots = () => {
        const view = map.getBounds().pad(CANVAS_PAD);
        const wanted: number[] = [];
        placed.forEach((p, i) => {
          if (view.contains([p.marker.position.lat, p.marker.position.lng])) wanted.push(i);
        });
        showDots(wanted, true);
        container.dataset.clusters = '0';
      };
      drawDots();
      map.on('moveend', drawDots);
      return () => {
        map.off('moveend', drawDots);
        cancelAnimationFrame(removing);
        layer.remove();
      };
    }

    const index = buildIndex(placed);
    const bubbles = new BubbleLayer((bubble) => {
      map.setView([bubble.lat, bubble.lng], Math.min(index.getClusterExpansionZoom(bubble.id), MAX_ZOOM));
    }).addTo(map);
    const draw = () => {
      const view = map.getBounds().pad(VIEW_PAD);
      const bbox: [number, number, number, number] = [
        view.getWest(),
        Math.max(-90, view.getSouth()),
        view.getEast(),
        Math.min(90, view.getNorth()),
      ];
      const dots: number[] = [];
      const found: Bubble[] = [];
      for (const feature of index.getClusters(bbox, Math.round(map.getZoom()))) {
        const props = feature.properties;
        if ('cluster' in props) {
          const [lng, lat] = feature.geometry.coordinates as [number, number];
          found.push({ id: props.cluster_id, count: props.point_count, severity: props.severity, lat, lng });
        } else {
          dots.push(props.i);
        }
      }
      showDots(dots);
      bubbles.show(found);
      container.dataset.clusters = String(found.length);
    };
    draw();
    map.on('moveend', draw);
    return () => {
      map.off('moveend', draw);
      cancelAnimationFrame(removing);
      bubbles.remove();
      layer.remove();
    };
  }, [map, placed, clustering, navigate]);

  if (failed) return <MapLoadError />;

  const toggleLabel = clustering ? DISABLE_CLUSTERING : ENABLE_CLUSTERING;
  return (
    <div ref={wrapperRef} className="gm-frame">
      <div
        ref={containerRef}
        className="gm-map"
        role="region"
        aria-roledescription="map"
        aria-label={mapDescription(placed, unplaced, loading)}
        aria-busy={loading}
      />
      <div className="gm-tools">
        <button
          type="button"
          className={tipDismissed ? 'gm-tool gm-tool--quiet' : 'gm-tool'}
          aria-label={toggleLabel}
          onClick={() => setClustering((on) => !on)}
          // Escape hides the tooltip until the pointer or focus leaves (WCAG 1.4.13).
          onKeyDown={(event) => {
            if (event.key === 'Escape') setTipDismissed(true);
          }}
          onBlur={() => setTipDismissed(false)}
          onMouseLeave={() => setTipDismissed(false)}
        >
          <span className={clustering ? 'pi pi-th-large' : 'pi pi-circle-fill'} aria-hidden="true" />
          <span className="gm-tooltip" role="tooltip">
            {toggleLabel}
          </span>
        </button>
      </div>
      {loading ? (
        <p className="gm-note" role="status">
          Loading devices…
        </p>
      ) : list.length === 0 ? (
        <p className="gm-note">{NO_DEVICES_IN_GROUP}</p>
      ) : unplaced > 0 ? (
        <p className="gm-note">
          {unplaced} {unplaced === 1 ? 'device' : 'devices'} without a position
        </p>
      ) : null}
      {tilesUnavailable && (
        <p className="map-tiles-note gm-tiles-note" role="status">
          {MAP_TILES_UNAVAILABLE}
        </p>
      )}
    </div>
  );
}
