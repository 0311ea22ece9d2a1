/**
 * The map widget's clustering: the supercluster index of the placed markers (a cluster carries
 * its most severe member's severity) and the layer that draws the cluster bubbles as buttons.
 */
import L from 'leaflet';
import Supercluster from 'supercluster';
import {
  clusterCountText,
  clusterLook,
  clusterSeverityOf,
  mergeClusterSeverity,
  type ClusterSeverity,
  type MapMarker,
  type MapSeverity,
} from '@portal/core';

interface PointProps {
  /** Index into the placed list. */
  i: number;
  severity: MapSeverity;
}

export type ClusterIndex = Supercluster<PointProps, ClusterSeverity>;

/** supercluster's radius (px) and the last zoom at which it clusters. */
const CLUSTER_RADIUS_PX = 60;
const CLUSTER_MAX_ZOOM = 16;

/** A cluster as drawn: supercluster's id, its member count, its most severe member's severity, its place. */
export interface Bubble {
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
export class BubbleLayer extends L.Layer {
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

/** The cluster index of the markers; a point's `i` is its index in the list. */
export function buildIndex(placed: readonly { marker: MapMarker }[]): ClusterIndex {
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
