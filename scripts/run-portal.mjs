// What `npm start` runs once its builds are current (scripts/start.mjs): the compiled server,
// started again when it dies (scripts/supervise.mjs; docs/operations.md, 'Supervision'), and the
// demo fleet beside it.
//
//   node scripts/run-portal.mjs      (the same environment as npm start; builds nothing)
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { SERVER_BUNDLE } from './build-server.mjs';
import { supervise } from './supervise.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const isPortalReady = (message) => message?.type === 'portal-ready';

/** Runs the portal until it stops for good, then exits with its status. */
export async function runPortal() {
  const env = { ...process.env, WEB_DIST: process.env.WEB_DIST ?? join(root, 'apps/web/dist') };
  // The ports the first start took (PORT=0 picks one): a restart takes them again, so browsers,
  // devices and the demo fleet find the portal where it was.
  let ports = null;

  // The demo fleet is a client of the running portal (its public API and its broker), in a process
  // of its own, on the ports the portal actually took. It is one thing per installation: with
  // DATABASE_URL (several instances may share it) no instance starts it; run `npm run demo-fleet`
  // once instead (README, 'Running several instances'). It outlives a restart of the server: its
  // devices reconnect by themselves.
  let fleet = null;
  const startsFleet = !process.env.DATABASE_URL;
  const startFleet = () => {
    fleet = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/demo-fleet.ts')], {
      cwd: root,
      stdio: 'inherit',
      env: { ...env, ...ports },
    });
    fleet.on('exit', () => (fleet = null));
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => fleet?.kill(signal));

  const code = await supervise({
    name: 'The portal server',
    isReady: isPortalReady,
    start() {
      // A 32 MB young generation: messages waiting for their group commit die young instead of
      // being promoted (docs/decisions.md, 'Server heap').
      const server = spawn(process.execPath, ['--max-semi-space-size=32', '--enable-source-maps', SERVER_BUNDLE], {
        cwd: root,
        stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
        env: { ...env, ...ports },
      });
      server.on('message', (message) => {
        if (!isPortalReady(message)) return;
        ports ??= {
          PORT: String(message.port),
          ...(message.mqttPort === null ? {} : { MQTT_PORT: String(message.mqttPort) }),
        };
        // A parent that started npm start with an IPC channel (a test, a tool) learns the ports too.
        if (process.connected) process.send(message);
        if (startsFleet && !fleet) startFleet();
      });
      return server;
    },
  });
  fleet?.kill('SIGTERM');
  process.exit(code);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runPortal();
