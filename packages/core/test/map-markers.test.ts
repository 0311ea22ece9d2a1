import { describe, expect, it } from 'vitest';
import {
  AA_TEXT_CONTRAST,
  CLUSTER_DIAMETERS_PX,
  MAP_DEFAULTS,
  MAP_SEVERITIES,
  SEVERITY_COLOURS,
  autoFitAllowed,
  clusterCountText,
  clusterLook,
  clusterSeverityOf,
  contrastRatio,
  isMapPosition,
  mapMarker,
  mapMarkers,
  markerView,
  mergeClusterSeverity,
  type MarkerSource,
} from '../src/index';

const device = (over: Partial<MarkerSource> = {}): MarkerSource => ({
  deviceid: 'A00000001',
  name: 'Pump 1',
  lat: -33.87,
  lon: 151.21,
  severity: 'normal',
  ...over,
});

describe('the map marker (MAP-03, MAP-14)', () => {
  it('has position, label, id, severity and colour, from the latest gps_lat and gps_lon', () => {
    const marker = mapMarker(device({ severity: 'warning' }));
    expect(marker).toEqual({
      id: 'A00000001',
      label: 'Pump 1',
      position: { lat: -33.87, lng: 151.21 },
      severity: 'warning',
      colour: SEVERITY_COLOURS.warning,
    });
    expect(Object.keys(marker!).sort()).toEqual(['colour', 'id', 'label', 'position', 'severity']);
  });

  it('is labelled with the id when the device has no name', () => {
    expect(mapMarker(device({ name: '  ' }))?.label).toBe('A00000001');
  });

  it.each(MAP_SEVERITIES)('takes the colour of severity %s', (severity) => {
    expect(mapMarker(device({ severity }))?.colour).toBe(SEVERITY_COLOURS[severity]);
  });

  it('is not made for a device without a position, or with one off the globe', () => {
    expect(mapMarker(device({ lat: null }))).toBeNull();
    expect(mapMarker(device({ lon: null }))).toBeNull();
    expect(mapMarker(device({ lat: Number.NaN }))).toBeNull();
    expect(mapMarker(device({ lat: 91 }))).toBeNull();
    expect(mapMarker(device({ lon: -180.5 }))).toBeNull();
    expect(isMapPosition(0, 0)).toBe(true);
    expect(isMapPosition(-90, 180)).toBe(true);
    expect(isMapPosition('1', 2)).toBe(false);
  });

  it('counts the devices left off the map', () => {
    const { markers, unplaced } = mapMarkers([
      device({ deviceid: 'A00000001' }),
      device({ deviceid: 'A00000002', lat: null, lon: null }),
      device({ deviceid: 'A00000003' }),
    ]);
    expect(markers.map((m) => m.id)).toEqual(['A00000001', 'A00000003']);
    expect(unplaced).toBe(1);
  });
});

describe('cluster severity (MAP-06)', () => {
  it('a cluster of {normal, info, alarm} is alarm-coloured', () => {
    const acc = clusterSeverityOf({ severity: 'normal' });
    mergeClusterSeverity(acc, clusterSeverityOf({ severity: 'info' }));
    mergeClusterSeverity(acc, clusterSeverityOf({ severity: 'alarm' }));
    expect(acc.severity).toBe('alarm');
    expect(clusterLook(3, acc.severity).colour).toBe(SEVERITY_COLOURS.alarm);
  });

  it('keeps the most severe whatever the order, and a lesser member does not lower it', () => {
    const acc = clusterSeverityOf({ severity: 'warning' });
    mergeClusterSeverity(acc, { severity: 'normal' });
    mergeClusterSeverity(acc, { severity: 'info' });
    expect(acc.severity).toBe('warning');
  });
});

describe('cluster size (MAP-07)', () => {
  it.each([
    [1, 'small'],
    [4, 'small'],
    [5, 'medium'],
    [9, 'medium'],
    [10, 'large'],
    [10_000, 'large'],
  ] as const)('%i members give the %s size', (count, size) => {
    expect(clusterLook(count, 'normal').size).toBe(size);
    expect(clusterLook(count, 'normal').diameterPx).toBe(CLUSTER_DIAMETERS_PX[size]);
  });

  it('grows with the size', () => {
    expect(CLUSTER_DIAMETERS_PX.small).toBeLessThan(CLUSTER_DIAMETERS_PX.medium);
    expect(CLUSTER_DIAMETERS_PX.medium).toBeLessThan(CLUSTER_DIAMETERS_PX.large);
  });

  it.each(MAP_SEVERITIES)('is coloured by severity %s with a count that reaches AA contrast on it', (severity) => {
    const look = clusterLook(12, severity);
    expect(look.colour).toBe(SEVERITY_COLOURS[severity]);
    expect(contrastRatio(look.colour, look.textColour)).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
  });

  it('writes large counts short', () => {
    expect(clusterCountText(7)).toBe('7');
    expect(clusterCountText(999)).toBe('999');
    expect(clusterCountText(1000)).toBe('1k');
    expect(clusterCountText(1299)).toBe('1.2k');
    expect(clusterCountText(10_000)).toBe('10k');
  });
});

describe('the view the map fits (MAP-08, MAP-09)', () => {
  it('with no markers is the default centre at zoom 2', () => {
    expect(markerView([])).toEqual({ kind: 'centre', centre: { lat: 26, lng: -135 }, zoom: 2 });
    expect(MAP_DEFAULTS.zoom).toBe(2);
  });

  it('with one marker is that marker at zoom 15', () => {
    expect(markerView([{ lat: 1, lng: 2 }])).toEqual({ kind: 'centre', centre: { lat: 1, lng: 2 }, zoom: 15 });
    expect(
      markerView([
        { lat: 1, lng: 2 },
        { lat: 1, lng: 2 },
      ]),
    ).toMatchObject({ zoom: 15 });
  });

  it('with several is the box around them', () => {
    expect(
      markerView([
        { lat: -30, lng: 150 },
        { lat: -35, lng: 140 },
        { lat: -20, lng: 145 },
      ]),
    ).toEqual({ kind: 'bounds', south: -35, west: 140, north: -20, east: 150 });
  });
});

describe('auto-fit pauses 5 s after the pointer leaves (MAP-10)', () => {
  it('is allowed before the pointer ever came', () => {
    expect(autoFitAllowed({ inside: false, leftAtMs: null }, 1000)).toBe(true);
  });
  it('is paused while the pointer is over the map', () => {
    expect(autoFitAllowed({ inside: true, leftAtMs: null }, 1000)).toBe(false);
  });
  it('is paused at +3 s and allowed again at +5 s', () => {
    const left = 100_000;
    expect(autoFitAllowed({ inside: false, leftAtMs: left }, left + 3000)).toBe(false);
    expect(autoFitAllowed({ inside: false, leftAtMs: left }, left + 4999)).toBe(false);
    expect(autoFitAllowed({ inside: false, leftAtMs: left }, left + 5000)).toBe(true);
  });
});
