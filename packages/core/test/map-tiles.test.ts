import { describe, expect, it } from 'vitest';
import { DEFAULT_MAP_TILES, isTileUrlTemplate, probeTileUrl, tileImageSource } from '../src';

describe('map tiles', () => {
  it('the default is OpenStreetMap, allowed as its subdomains', () => {
    expect(tileImageSource(DEFAULT_MAP_TILES.url)).toBe('https://*.tile.openstreetmap.org');
  });

  it.each([
    ['http://tiles.local:8080/{z}/{x}/{y}.png', 'http://tiles.local:8080'],
    ['https://tiles.example.com/osm/{z}/{x}/{y}.png?key=1', 'https://tiles.example.com'],
  ])('%s -> %s', (url, source) => {
    expect(tileImageSource(url)).toBe(source);
  });

  it.each([
    'ftp://x/{z}/{x}/{y}',
    'https://x/tiles.png',
    "https://x';script-src *;/{z}/{x}/{y}",
    'https://{a}.x/{z}/{x}/{y}',
    '',
  ])('refuses %j', (url) => {
    expect(tileImageSource(url)).toBeNull();
  });

  it('a template needs z, x and y', () => {
    expect(isTileUrlTemplate('https://x/{z}/{x}.png')).toBe(false);
  });

  it('the probe asks for the one tile of zoom 0', () => {
    expect(probeTileUrl(DEFAULT_MAP_TILES.url)).toBe('https://a.tile.openstreetmap.org/0/0/0.png');
    expect(probeTileUrl('http://tiles.local:8080/{z}/{x}/{y}{r}.png')).toBe('http://tiles.local:8080/0/0/0.png');
  });
});
