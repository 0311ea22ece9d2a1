// `npm start`: builds what is missing, then starts the portal on its embedded defaults.
import { existsSync } from 'node:fs';
import { spawnSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { SERVER_BUNDLE, buildServer, serverBuildIsStale } from './build-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webDist = join(root, 'apps/web/dist/index.html');

if (!existsSync(webDist) || process.env.REBUILD === '1') {
  console.log('Building the web app (first start)…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('The web app failed to build.');
    process.exit(build.status ?? 1);
  }
}

// The server runs compiled, not through a TypeScript loader: it starts sooner and smaller
// (docs/decisions.md, 'Server start'). Rebuilt (about a second) when a server or core source is newer.
if (process.env.REBUILD === '1' || serverBuildIsStale()) {
  console.log('Compiling the server…');
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
// of its own, on the ports the portal actually took (PORT=0 picks one).
let fleet = null;
server.on('message', (message) => {
  if (message?.type !== 'portal-ready' || fleet) return;
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
