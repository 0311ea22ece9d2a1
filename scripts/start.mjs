// `npm start`: builds what is missing, then starts the portal on its embedded defaults.
import { spawnSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { SERVER_BUNDLE, buildServer, whyServerBuildIsStale } from './build-server.mjs';
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

// A 32 MB young generation: messages waiting for their group commit die young instead of being
// promoted (docs/decisions.md, 'Server heap').
const env = { ...process.env, WEB_DIST: process.env.WEB_DIST ?? join(root, 'apps/web/dist') };
const server = spawn(process.execPath, ['--max-semi-space-size=32', '--enable-source-maps', SERVER_BUNDLE], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env,
});

// The demo fleet is a client of the running portal (its public API and its broker), in a process
// of its own, on the ports the portal actually took (PORT=0 picks one). It is one thing per
// installation: with DATABASE_URL (several instances may share it) no instance starts it; run
// `npm run demo-fleet` once instead (README, 'Running several instances').
let fleet = null;
const startsFleet = !process.env.DATABASE_URL;
server.on('message', (message) => {
  if (message?.type !== 'portal-ready' || fleet || !startsFleet) return;
  const ports = {
    PORT: String(message.port),
    ...(message.mqttPort === null ? {} : { MQTT_PORT: String(message.mqttPort) }),
  };
  fleet = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/demo-fleet.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, ...ports },
  });
  fleet.on('exit', () => (fleet = null));
});

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    fleet?.kill(signal);
    server.kill(signal);
  });
server.on('exit', (code, signal) => {
  fleet?.kill('SIGTERM');
  process.exit(code ?? (signal ? 1 : 0));
});
