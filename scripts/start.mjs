// `npm start`: builds what is missing, then runs the portal on its embedded defaults, started again
// when it dies (scripts/run-portal.mjs).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { buildServer, whyServerBuildIsStale } from './build-server.mjs';
import { runPortal } from './run-portal.mjs';
import { whyStale } from './stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const forced = process.env.REBUILD === '1' ? 'REBUILD=1' : null;

/** What the web build is made of: its sources, public files, page, config and manifest, and core's. */
const WEB_INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/core/src',
  'packages/core/package.json',
].map((path) => join(root, path));

// Built when there is no build or a source is newer than it (after a pull), or with REBUILD=1.
const webStale = forced ?? whyStale(join(root, 'apps/web/dist/index.html'), WEB_INPUTS, root);
if (webStale) {
  console.log(`Building the web app (${webStale})…`);
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('The web app failed to build.');
    process.exit(build.status ?? 1);
  }
}

// The server runs compiled, not through a TypeScript loader: it starts sooner and smaller
// (docs/decisions.md, 'Server start'). Rebuilt (about a second) when a server or core source is newer.
const serverStale = forced ?? whyServerBuildIsStale();
if (serverStale) {
  console.log(`Compiling the server (${serverStale})…`);
  await buildServer().catch(() => {
    console.error('The server failed to compile.');
    process.exit(1);
  });
}

await runPortal();
