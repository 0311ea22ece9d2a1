// Compiles the server for `npm start` (docs/decisions.md, 'Server start'): one ES module,
// apps/server/dist/main.mjs, with packages/core bundled in and every third-party package left to
// node_modules. Each module keeps its own import.meta.url (rewritten relative to the bundle), so the
// migrations folder, the PGlite worker and the repository root resolve as they do from the sources.
//
//   node scripts/build-server.mjs      (npm run build:server)
import { readFile, mkdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { whyStale } from './stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = join(root, 'apps/server/dist/main.mjs');

/** What the bundle is made of: the server's and core's sources, their manifests and this script. */
const INPUTS = [
  join(root, 'apps/server/src'),
  join(root, 'packages/core/src'),
  join(root, 'apps/server/package.json'),
  join(root, 'packages/core/package.json'),
  fileURLToPath(import.meta.url),
];

/** Why the bundle must be compiled again (there is none, or a source is newer than it), or null. */
export function whyServerBuildIsStale() {
  return whyStale(SERVER_BUNDLE, INPUTS, root);
}

export async function buildServer() {
  await mkdir(dirname(SERVER_BUNDLE), { recursive: true });
  const bundleDir = dirname(SERVER_BUNDLE);
  // Loaded only when a build is needed: a start with a current bundle never loads esbuild.
  const { build, stop } = await import('esbuild');
  try {
    await build({
      entryPoints: [join(root, 'apps/server/src/main.ts')],
      outfile: SERVER_BUNDLE,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      logLevel: 'warning',
      plugins: [
        {
          name: 'portal-server',
          setup(b) {
            // Workspace packages (TypeScript sources) are bundled; installed packages stay external.
            b.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@portal/') || args.path.startsWith('node:')
                ? undefined
                : { path: args.path, external: true },
            );
            b.onLoad({ filter: /\.ts$/ }, async (args) => {
              const source = relative(bundleDir, args.path).split('\\').join('/');
              const url = `new URL(${JSON.stringify(source)}, import.meta.url).href`;
              const text = await readFile(args.path, 'utf8');
              return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
            });
          },
        },
      ],
    });
  } finally {
    // esbuild's service process would otherwise stay beside the portal.
    await stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();
