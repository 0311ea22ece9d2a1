// What a first visit to a route of the built web app loads, read from Vite's manifest
// (dist/.vite/manifest.json): the entry chunk, the route's lazy chunk, any lazy chunk the visit is
// known to load as well, and every chunk those import statically (Vite preloads them together);
// their CSS and the default brand's style sheet. Sizes are gzip level 9 in kB (1000 bytes), as
// `npm run bench -- signin-bundle` counts what Chromium loads.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '../..');

/** The web build the tests serve: E2E_WEB_DIST, else apps/web/dist. */
export const WEB_DIST = process.env.E2E_WEB_DIST ?? join(root, 'apps/web/dist');

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface RouteSize {
  /** kB gzip of the JavaScript files. */
  js: number;
  /** kB gzip of the CSS files. */
  css: number;
  /** The files counted, for a failure message. */
  files: string[];
}

/** The route modules routes.tsx loads lazily (`import('./routes/<module>')`), in source order. */
export function lazyRouteModules(): string[] {
  const source = readFileSync(join(root, 'apps/web/src/app/routes.tsx'), 'utf8');
  return [...source.matchAll(/import\(\s*'\.\/routes\/([\w-]+)'\s*\)/g)].map((m) => m[1] as string);
}

/** Reads the build's manifest; the sizes of one route's first visit are `sizeOf(module, alsoLoads)`. */
export function readBuild(dist = WEB_DIST) {
  const manifestPath = join(dist, '.vite/manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`No web build at ${dist} (no .vite/manifest.json): run \`npm run build\` or set E2E_WEB_DIST`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error(`${manifestPath} names no entry chunk`);
  const entry = manifest[entryKey] as ManifestChunk;

  const gzipped = new Map<string, number>();
  const gzipKb = (file: string) => {
    let bytes = gzipped.get(file);
    if (bytes === undefined) {
      bytes = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
      gzipped.set(file, bytes);
    }
    return bytes / 1000;
  };

  /**
   * The manifest key of a route module's chunk: keyed by its source, or, when Rollup made the
   * route's chunk a shared one (keyed `_<name>-<hash>.js`), the entry's lazy import of that name.
   */
  function routeChunk(module: string): string {
    const bySource = `src/app/routes/${module}.tsx`;
    if (manifest[bySource]) return bySource;
    const byName = (entry.dynamicImports ?? []).find((key) => manifest[key]?.name === module);
    if (!byName) throw new Error(`The build has no chunk for the route module ${module}`);
    return byName;
  }

  /**
   * The manifest key of a lazily loaded source (alsoLoads): keyed by its source, or, when Rollup
   * merged it into a shared chunk (keyed `_<name>-<hash>.js`), the chunk of that name.
   */
  function lazyChunk(source: string, module: string): string {
    if (manifest[source]) return source;
    const name = source.replace(/^.*\//, '').replace(/\.[jt]sx?$/, '');
    const byName = Object.keys(manifest).find((key) => key.startsWith('_') && manifest[key]?.name === name);
    if (!byName) throw new Error(`The build has no chunk ${source} (alsoLoads of ${module})`);
    return byName;
  }

  function sizeOf(module: string, alsoLoads: readonly string[] = []): RouteSize {
    const also = alsoLoads.map((key) => lazyChunk(key, module));
    const chunks = new Set<string>();
    const pending = [entryKey as string, routeChunk(module), ...also];
    while (pending.length > 0) {
      const key = pending.pop() as string;
      if (chunks.has(key)) continue;
      chunks.add(key);
      pending.push(...(manifest[key]?.imports ?? []));
    }
    const scripts = [...chunks].map((key) => (manifest[key] as ManifestChunk).file);
    const styles = [...new Set([...chunks].flatMap((key) => manifest[key]?.css ?? []))];
    // The brand's style sheet, linked at run time (public/brands/{id}/style.css).
    const brandStyle = 'brands/default/style.css';
    if (existsSync(join(dist, brandStyle))) styles.push(brandStyle);
    const sum = (files: string[]) => Math.round(files.reduce((kb, file) => kb + gzipKb(file), 0) * 10) / 10;
    return { js: sum(scripts), css: sum(styles), files: [...scripts, ...styles] };
  }

  return { dist, sizeOf };
}
