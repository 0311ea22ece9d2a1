/**
 * The Leaflet part of the dashboard map widget (loaded lazily by group-map-widget.tsx): the
 * group's devices as dots in their severity colour with a white ring, clustered by supercluster
 * (a cluster in its most severe member's colour, sized by its count), a toggle for clustering, a
 * popup per device with a Device Page link, and auto-fit to the markers that pauses while the
 * pointer is over the map and for 5 s after it leaves (spec 1 section 2).
 *
 * Everything is drawn as vectors (canvas dots, CSS bubbles), so it shows when no tile loads. Dots
 * go on one canvas, so 10,000 of them still pan smoothly; clusters (and, unclustered, the dots near
 * the view) are recomputed only when a move or zoom ends.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, type NavigateFunction } from 'react-router';
import L from 'leaflet';
import Supercluster from 'supercluster';
import { formatDistanceStrict } from 'date-fns';
import 'leaflet/dist/leaflet.css';
import {
  DISABLE_CLUSTERING,
  ENABLE_CLUSTERING,
  MAP_DEFAULTS,
  MAP_SEVERITIES,
  autoFitAllowed,
  clusterCountText,
  clusterLook,
  clusterSeverityOf,
  formatDateTimeWithOffset,
  mapMarker,
  markerView,
  mergeClusterSeverity,
  notAfterNow,
  MAP_TILES_UNAVAILABLE,
  NO_DEVICES_IN_GROUP,
  type AutoFitPointer,
  type ClusterSeverity,
  type GroupDataDevice,
  type MapMarker,
  type MapSeverity,
} from '@portal/core';
import { useMapTiles } from '@/lib/map-tiles';
import { useTileLayer } from '@/lib/tile-layer';
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

interface PointProps {
  /** Index into the placed list. */
  i: number;
  severity: MapSeverity;
}

type ClusterIndex = Supercluster<PointProps, ClusterSeverity>;

const DOT_RADIUS_PX = 7;
const RING = '#ffffff';
/** supercluster's radius (px) and the last zoom at which it clusters. */
const CLUSTER_RADIUS_PX = 60;
const CLUSTER_MAX_ZOOM = 16;
const MAX_ZOOM = 19;
/** Room kept around the markers when fitting, so the outer dots are not cut by the edge. */
const FIT_PADDING = L.point(32, 32);
/** Clusters are computed for a bit more than the view, so a short pan shows no empty edge. */
const VIEW_PAD = 0.1;
/** Unclustered dots are drawn as far around the view as the canvas reaches (its padding, 0.5). */
const CANVAS_PAD = 0.5;
const NO_DEVICES: readonly GroupDataDevice[] = [];
const POPUP_OPTIONS: L.PopupOptions = { autoPanPadding: [24, 24], maxWidth: 260 };

/** What the dot canvas reads of Leaflet's canvas renderer and of a circle marker (not in Leaflet's types). */
interface CircleInternals {
  _map: L.Map | null;
  _point: L.Point;
  _pxBounds?: L.Bounds;
  _radius: number;
  _empty(): boolean;
  _updatePath(): void;
  options: L.CircleMarkerOptions;
}
interface DrawOrder {
  layer: CircleInternals;
  next: DrawOrder | null;
}
interface CanvasInternals {
  _drawing: boolean;
  _ctx: CanvasRenderingContext2D;
  _drawFirst: DrawOrder | null;
  _redrawBounds: L.Bounds | null;
  /** The dots not drawn in this redraw: a later dot covers each whole. */
  _covered: Set<CircleInternals> | null;
  /** The rest of a whole redraw, drawn a slice per frame (its animation frame request). */
  _nextSlice?: number | null;
  /** A dot beyond the canvas is being taken off. */
  _offCanvas?: boolean;
}

/** The canvas renderer's own circle drawing (a path, a fill and a stroke). */
const leafletCircle = (
  L.Canvas.prototype as unknown as {
    _updateCircle: (this: CanvasInternals, layer: CircleInternals) => void;
  }
)._updateCircle;

/** Leaflet's own renderer methods the dot canvas wraps. */
const leafletCanvasMethods = L.Canvas.prototype as unknown as {
  _removePath: (this: CanvasInternals, layer: CircleInternals) => void;
  _requestRedraw: (this: CanvasInternals, layer: CircleInternals) => void;
};

/** How long one slice of a whole redraw may draw before the rest waits for the next frame. */
const DRAW_SLICE_MS = 20;
/** How many dots that left the canvas are taken off the map in one frame. */
const REMOVE_SLICE = 1000;

/** A dot stamped from a picture: filled and ringed, both opaque (a later one at its place hides it whole). */
function isStamped(layer: CircleInternals): boolean {
  const o = layer.options;
  return (
    typeof layer._radius === 'number' &&
    o.fill !== false &&
    o.stroke !== false &&
    (o.opacity ?? 1) === 1 &&
    (o.fillOpacity ?? 1) === 1
  );
}

/** One picture per look of dot (colour, ring, radius, pixel ratio), drawn once. */
const dotPictures = new Map<string, { picture: HTMLCanvasElement; half: number }>();

function dotPicture(options: L.CircleMarkerOptions, radius: number, scale: number) {
  const ring = options.weight ?? 0;
  const key = `${options.fillColor}|${options.color}|${ring}|${radius}|${scale}`;
  let found = dotPictures.get(key);
  if (!found) {
    // Room for the ring's outer half and its antialiased edge.
    const half = Math.ceil(radius + ring / 2) + 1;
    const picture = document.createElement('canvas');
    picture.width = picture.height = 2 * half * scale;
    const ctx = picture.getContext('2d');
    if (ctx) {
      // As Leaflet's canvas renderer draws a circle marker: a fill, then the ring.
      ctx.scale(scale, scale);
      ctx.beginPath();
      ctx.arc(half, half, radius, 0, Math.PI * 2, false);
      ctx.fillStyle = options.fillColor ?? options.color ?? '';
      ctx.fill('evenodd');
      if (ring > 0) {
        ctx.lineWidth = ring;
        ctx.strokeStyle = options.color ?? '';
        ctx.stroke();
      }
    }
    found = { picture, half };
    dotPictures.set(key, found);
  }
  return found;
}

/**
 * Leaflet's canvas renderer, but each dot is stamped from a picture of it drawn once per colour
 * instead of being drawn as a path of its own, a dot with a later one at the same pixel (which
 * would cover it whole) is not drawn at all, and a whole redraw goes a slice per frame: 10,000 dots
 * (unclustered, from the world down to a country) no longer hold the page in one long task.
 * Hit-testing, zoom animation and padding are Leaflet's.
 */
const DotCanvas = L.Canvas.extend({
  // As Leaflet's _draw (the layers in order, clipped to the redraw's bounds), but a whole redraw
  // (after a move or zoom) is drawn a slice per frame, so 10,000 dots do not hold the page in one
  // long task; a partial one (a dot added or removed) is drawn at once.
  _draw(this: CanvasInternals) {
    const bounds = this._redrawBounds;
    if (!bounds && this._nextSlice) {
      cancelAnimationFrame(this._nextSlice);
      this._nextSlice = null;
    }
    const layers: CircleInternals[] = [];
    for (let order = this._drawFirst; order; order = order.next) {
      const layer = order.layer;
      if (!bounds || (layer._pxBounds && layer._pxBounds.intersects(bounds))) layers.push(layer);
    }
    const covered = new Set<CircleInternals>();
    const taken = new Set<string>();
    for (let i = layers.length - 1; i >= 0; i -= 1) {
      const layer = layers[i] as CircleInternals;
      if (!isStamped(layer)) continue;
      const at = `${layer._point.x},${layer._point.y},${layer._radius}`;
      if (taken.has(at)) covered.add(layer);
      else taken.add(at);
    }
    const clip = bounds?.min ? { min: bounds.min.clone(), size: bounds.getSize() } : null;
    const drawFrom = (from: number): number => {
      const ctx = this._ctx;
      ctx.save();
      if (clip) {
        ctx.beginPath();
        ctx.rect(clip.min.x, clip.min.y, clip.size.x, clip.size.y);
        ctx.clip();
      }
      this._covered = covered;
      this._drawing = true;
      const started = performance.now();
      let i = from;
      for (; i < layers.length; i += 1) {
        if (!clip && i > from && i % 256 === 0 && performance.now() - started > DRAW_SLICE_MS) break;
        const layer = layers[i] as CircleInternals;
        // A dot removed since the redraw began is not drawn.
        if (layer._map) layer._updatePath();
      }
      this._drawing = false;
      this._covered = null;
      ctx.restore();
      return i;
    };
    const slice = (from: number) => {
      const next = drawFrom(from);
      this._nextSlice =
        next < layers.length
          ? requestAnimationFrame(() => {
              this._nextSlice = null;
              slice(next);
            })
          : null;
    };
    if (clip) drawFrom(0);
    else slice(0);
  },
  _updateCircle(this: CanvasInternals, layer: CircleInternals) {
    if (!this._drawing) return;
    if (!isStamped(layer)) {
      leafletCircle.call(this, layer);
      return;
    }
    if (this._covered?.has(layer) || layer._empty()) return;
    const radius = Math.max(Math.round(layer._radius), 1);
    const { picture, half } = dotPicture(layer.options, radius, L.Browser.retina ? 2 : 1);
    this._ctx.drawImage(picture, layer._point.x - half, layer._point.y - half, 2 * half, 2 * half);
  },
  // A dot taken off while beyond the canvas was not drawn: nothing to redraw for it.
  _removePath(this: CanvasInternals, layer: CircleInternals) {
    this._offCanvas = layer._empty();
    leafletCanvasMethods._removePath.call(this, layer);
    this._offCanvas = false;
  },
  _requestRedraw(this: CanvasInternals, layer: CircleInternals) {
    if (!this._offCanvas) leafletCanvasMethods._requestRedraw.call(this, layer);
  },
  _destroyContainer(this: CanvasInternals) {
    if (this._nextSlice) cancelAnimationFrame(this._nextSlice);
    this._nextSlice = null;
    (L.Canvas.prototype as unknown as { _destroyContainer: (this: unknown) => void })._destroyContainer.call(this);
  },
}) as unknown as new (options?: L.RendererOptions) => L.Canvas;

/** A cluster as drawn: supercluster's id, its member count, its most severe member's severity, its place. */
interface Bubble {
  id: number;
  count: number;
  severity: MapSeverity;
  lat: number;
  lng: number;
}

/**
 * The cluster bubbles, all in one element of the marker pane, written at once after each move or
 * zoom (a Leaflet marker each costs far more in events and DOM work); hidden while a zoom
 * animates. Each bubble is a button: a click, Enter or Space zooms in on it.
 */
class BubbleLayer extends L.Layer {
  private box: HTMLDivElement | null = null;
  private drawn: Bubble[] = [];

  constructor(private readonly onChoose: (bubble: Bubble) => void) {
    super();
  }

  override onAdd(map: L.Map): this {
    const box = L.DomUtil.create('div', 'gm-bubbles', map.getPane('markerPane'));
    // A press on a bubble is the bubble's, not the start of a drag or a click on the map.
    L.DomEvent.disableClickPropagation(box);
    box.addEventListener('click', this.onClick);
    box.addEventListener('keydown', this.onKey);
    this.box = box;
    map.on('zoomstart', this.hide);
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('zoomstart', this.hide);
    this.box?.remove();
    this.box = null;
    return this;
  }

  /** Draws these bubbles in place of the last ones. */
  show(bubbles: Bubble[]): void {
    const box = this.box;
    if (!box || !this._map) return;
    this.drawn = bubbles;
    const fragment = document.createDocumentFragment();
    bubbles.forEach((bubble, i) => {
      const look = clusterLook(bubble.count, bubble.severity);
      const at = this._map.latLngToLayerPoint([bubble.lat, bubble.lng]);
      const half = look.diameterPx / 2;
      const el = document.createElement('div');
      el.className = `gm-cluster gm-cluster--${look.size}`;
      el.tabIndex = 0;
      el.setAttribute('role', 'button');
      el.setAttribute('aria-label', `${bubble.count} devices, most severe ${look.severity}; zoom in`);
      el.dataset.i = String(i);
      el.dataset.severity = look.severity;
      el.dataset.count = String(bubble.count);
      el.textContent = clusterCountText(bubble.count);
      el.style.width = el.style.height = `${look.diameterPx}px`;
      el.style.transform = `translate3d(${Math.round(at.x - half)}px, ${Math.round(at.y - half)}px, 0)`;
      el.style.setProperty('--gm-cluster-colour', look.colour);
      el.style.color = look.textColour;
      fragment.append(el);
    });
    box.replaceChildren(fragment);
    box.hidden = false;
  }

  private readonly hide = () => {
    if (this.box) this.box.hidden = true;
  };

  private choose(target: EventTarget | null): boolean {
    const el = target instanceof Element ? target.closest<HTMLElement>('.gm-cluster') : null;
    const bubble = el ? this.drawn[Number(el.dataset.i)] : undefined;
    if (bubble) this.onChoose(bubble);
    return bubble !== undefined;
  }

  private readonly onClick = (event: MouseEvent) => {
    this.choose(event.target);
  };

  private readonly onKey = (event: KeyboardEvent) => {
    if ((event.key === 'Enter' || event.key === ' ') && this.choose(event.target)) event.preventDefault();
  };
}

function placeDevices(devices: readonly GroupDataDevice[]): { placed: Placed[]; unplaced: number } {
  const placed: Placed[] = [];
  for (const device of devices) {
    const marker = mapMarker(device);
    if (marker) placed.push({ marker, device });
  }
  return { placed, unplaced: devices.length - placed.length };
}

function buildIndex(placed: readonly Placed[]): ClusterIndex {
  const index: ClusterIndex = new Supercluster<PointProps, ClusterSeverity>({
    radius: CLUSTER_RADIUS_PX,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: clusterSeverityOf,
    reduce: mergeClusterSeverity,
  });
  return index.load(
    placed.map(({ marker }, i) => ({
      type: 'Feature' as const,
      geometry: { type: 'Point' as const, coordinates: [marker.position.lng, marker.position.lat] },
      properties: { i, severity: marker.severity },
    })),
  );
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

/** The popup of a device: its name, last contact and a Device Page link, built as nodes (names are never read as HTML). */
function popupContent(device: GroupDataDevice, label: string, navigate: NavigateFunction): HTMLElement {
  const box = document.createElement('div');
  box.className = 'gm-popup';
  const name = box.appendChild(document.createElement('strong'));
  name.className = 'gm-popup__name';
  name.textContent = label;
  const contact = box.appendChild(document.createElement('div'));
  contact.className = 'gm-popup__contact';
  contact.append('Last contact: ');
  if (device.ts === null || !Number.isFinite(device.ts)) {
    contact.append('never');
  } else {
    const date = new Date(device.ts * 1000);
    const now = Date.now();
    const time = contact.appendChild(document.createElement('time'));
    time.dateTime = date.toISOString();
    time.title = formatDateTimeWithOffset(date);
    time.textContent = formatDistanceStrict(notAfterNow(date.getTime(), now), now, {
      addSuffix: true,
      roundingMethod: 'floor',
    });
  }
  const path = `/data/${encodeURIComponent(device.deviceid)}`;
  const link = box.appendChild(document.createElement('a'));
  link.className = 'gm-popup__link';
  link.href = path;
  link.textContent = 'Device Page';
  link.addEventListener('click', (event) => {
    // A plain click stays in the app; a modified one (new tab, new window) is the browser's.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(path);
  });
  return box;
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
