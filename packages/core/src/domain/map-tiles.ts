/**
 * Where map tiles come from (DESIGN.md section 3: the tile address is configurable): a Leaflet
 * URL template and its attribution. OpenStreetMap's by default.
 */

export interface MapTiles {
  /** Leaflet URL template, e.g. https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png */
  url: string;
  /** Attribution HTML shown on the map. */
  attribution: string;
}

export const DEFAULT_MAP_TILES: MapTiles = {
  url: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
};

/** What a map says when its tiles cannot load (offline, a blocked tile server); its markers stay. */
export const MAP_TILES_UNAVAILABLE = 'Map tiles are unavailable: the markers are shown without the map background.';

/**
 * The address of one tile of a template, the whole world at zoom 0 (subdomain 'a', no retina
 * suffix): the one request that tells whether the tile server answers.
 */
export function probeTileUrl(template: string): string {
  return template
    .replaceAll('{s}', 'a')
    .replaceAll('{z}', '0')
    .replaceAll('{x}', '0')
    .replaceAll('{y}', '0')
    .replaceAll('{r}', '');
}

/** A tile template: http(s), a host, and the {z} {x} {y} placeholders. */
export function isTileUrlTemplate(url: string): boolean {
  return /^https?:\/\/[A-Za-z0-9.{}:-]+\/\S*$/.test(url) && ['{z}', '{x}', '{y}'].every((p) => url.includes(p));
}

/**
 * The content-security-policy source that lets the page load the template's tiles: its origin,
 * with a '{s}' subdomain as a wildcard ('https://*.tile.openstreetmap.org'); null when the
 * template is not valid.
 */
export function tileImageSource(url: string): string | null {
  if (!isTileUrlTemplate(url)) return null;
  const origin = /^(https?:\/\/[^/]+)/.exec(url)![1]!;
  const host = origin.replace(/^https?:\/\//, '');
  const wild = host.replace(/^\{s\}\./, '*.');
  if (/[{}]/.test(wild)) return null;
  return `${origin.slice(0, origin.length - host.length)}${wild}`;
}
