/**
 * The dashboard map's markers and clusters (spec 1 sections 2-4 and 9; ledger MAP-03, MAP-06,
 * MAP-07, MAP-08 - MAP-10): the marker of a device (position, label, id, severity, colour), the
 * severity a cluster carries (its most severe member, as supercluster's map/reduce merge it), a
 * cluster's size and colours, the view the map fits to, and when it may fit.
 */
import { textOn } from './colour';
import { MAP_DEFAULTS } from './constants';
import { SEVERITY_COLOURS, clusterSize, mostSevere, type ClusterSize, type MapSeverity } from './severity';

/** A latitude and longitude in degrees. */
export interface MapPosition {
  lat: number;
  lng: number;
}

/** One marker of the map (spec 1 section 3 'Map marker'). */
export interface MapMarker {
  /** The device's id. */
  id: string;
  /** The device's name, or its id when it has none. */
  label: string;
  /** The device's latest GPS fix (gps_lat, gps_lon). */
  position: MapPosition;
  severity: MapSeverity;
  /** The severity's colour (UI.md palette). */
  colour: string;
}

/** What the marker builder reads of a device (a GroupDataDevice has these fields). */
export interface MarkerSource {
  deviceid: string;
  name: string;
  lat: number | null;
  lon: number | null;
  severity: MapSeverity;
}

/** Whether lat and lon are a position on the globe: finite, latitude within ±90 and longitude within ±180 degrees. */
export function isMapPosition(lat: unknown, lon: unknown): boolean {
  return (
    typeof lat === 'number' &&
    typeof lon === 'number' &&
    Number.isFinite(lat) &&
    Number.isFinite(lon) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lon) <= 180
  );
}

/** The marker of a device, or null when the device has no position (it is not drawn). */
export function mapMarker(device: MarkerSource): MapMarker | null {
  if (!isMapPosition(device.lat, device.lon)) return null;
  const label = device.name.trim() === '' ? device.deviceid : device.name;
  return {
    id: device.deviceid,
    label,
    position: { lat: device.lat!, lng: device.lon! },
    severity: device.severity,
    colour: SEVERITY_COLOURS[device.severity],
  };
}

/** The markers of the devices that have a position, in their order, and how many have none. */
export function mapMarkers(devices: readonly MarkerSource[]): { markers: MapMarker[]; unplaced: number } {
  const markers: MapMarker[] = [];
  for (const device of devices) {
    const marker = mapMarker(device);
    if (marker) markers.push(marker);
  }
  return { markers, unplaced: devices.length - markers.length };
}

// ---- Clusters ------------------------------------------------------------------------------

/** What a cluster carries of its members: the most severe member's severity (supercluster's map/reduce). */
export interface ClusterSeverity {
  severity: MapSeverity;
}

/** supercluster's `map`: what one marker brings into a cluster. */
export function clusterSeverityOf(marker: { severity: MapSeverity }): ClusterSeverity {
  return { severity: marker.severity };
}

/** supercluster's `reduce`: merges another member's (or sub-cluster's) severity into the cluster's, keeping the most severe. */
export function mergeClusterSeverity(into: ClusterSeverity, other: Readonly<ClusterSeverity>): void {
  into.severity = mostSevere([into.severity, other.severity]);
}

/** Diameter in CSS pixels of each cluster size. */
export const CLUSTER_DIAMETERS_PX = { small: 32, medium: 40, large: 50 } as const satisfies Record<ClusterSize, number>;

/** How a cluster is drawn: its size class and diameter, the severity colour and a count colour that reaches AA on it. */
export interface ClusterLook {
  size: ClusterSize;
  diameterPx: number;
  severity: MapSeverity;
  colour: string;
  textColour: string;
}

/** How a cluster of `count` members whose most severe member is `severity` is drawn (MAP-06, MAP-07). */
export function clusterLook(count: number, severity: MapSeverity): ClusterLook {
  const size = clusterSize(count);
  const colour = SEVERITY_COLOURS[severity];
  return { size, diameterPx: CLUSTER_DIAMETERS_PX[size], severity, colour, textColour: textOn(colour) };
}

/** A cluster's count as shown in the bubble: the number up to 999, then thousands ('1.2k', '10k'). */
export function clusterCountText(count: number): string {
  if (count < 1000) return String(count);
  const thousands = count / 1000;
  return `${thousands < 10 ? Math.floor(thousands * 10) / 10 : Math.floor(thousands)}k`;
}

// ---- The view ------------------------------------------------------------------------------

/** Where the map goes for its markers: the default view, one marker at the single-marker zoom, or the markers' bounds. */
export type MarkerView =
  | { kind: 'centre'; centre: MapPosition; zoom: number }
  | { kind: 'bounds'; south: number; west: number; north: number; east: number };

/**
 * The view that fits the markers (MAP-08, MAP-09): with none the default centre (26, -135) at zoom
 * 2; one marker (or several at one spot) at zoom 15; else the box around them all.
 */
export function markerView(positions: readonly MapPosition[]): MarkerView {
  if (positions.length === 0) {
    return { kind: 'centre', centre: { ...MAP_DEFAULTS.centre }, zoom: MAP_DEFAULTS.zoom };
  }
  let south = Infinity;
  let west = Infinity;
  let north = -Infinity;
  let east = -Infinity;
  for (const p of positions) {
    south = Math.min(south, p.lat);
    north = Math.max(north, p.lat);
    west = Math.min(west, p.lng);
    east = Math.max(east, p.lng);
  }
  if (south === north && west === east) {
    return { kind: 'centre', centre: { lat: south, lng: west }, zoom: MAP_DEFAULTS.singleMarkerZoom };
  }
  return { kind: 'bounds', south, west, north, east };
}

/** What the map knows of the pointer: whether it is over the map, and when it last left (epoch ms, null if never). */
export interface AutoFitPointer {
  inside: boolean;
  leftAtMs: number | null;
}

/**
 * Whether the map may fit itself to its markers now (MAP-10): not while the pointer is over it,
 * nor until 5 s after the pointer leaves it; exactly 5 s after is allowed again.
 */
export function autoFitAllowed(pointer: AutoFitPointer, nowMs: number): boolean {
  if (pointer.inside) return false;
  return pointer.leftAtMs === null || nowMs - pointer.leftAtMs >= MAP_DEFAULTS.autoFitPauseMs;
}
