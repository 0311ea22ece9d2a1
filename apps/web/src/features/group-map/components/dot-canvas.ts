/**
 * The map widget's dot canvas: Leaflet's canvas renderer, but each dot is stamped from a picture
 * drawn once per look, a dot covered whole by a later one is skipped, and a whole redraw goes a
 * slice per frame, so 10,000 dots pan smoothly and never hold the page in one long task.
 */
import L from 'leaflet';

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
export const DotCanvas = L.Canvas.extend({
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
