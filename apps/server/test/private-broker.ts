/**
 * A private Mosquitto for the tests and benchmarks of several instances (issue 17): started on an
 * ephemeral loopback port with a generated configuration, anonymous clients refused, devices
 * authenticated by the dynamic security plugin that the portal drives. Its admin client (made by
 * `mosquitto_ctrl dynsec init`) is the portal's own user; the portal gives itself the rest.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Where Debian's mosquitto 2.0 installs the plugin. */
export const DYNSEC_PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';

/** True when this machine can run a private Mosquitto with the dynamic security plugin. */
export function privateBrokerAvailable(): boolean {
  return (
    existsSync(DYNSEC_PLUGIN) &&
    spawnSync('mosquitto', ['-h']).error === undefined &&
    spawnSync('mosquitto_ctrl', ['--help']).error === undefined
  );
}

export interface PrivateBroker {
  port: number;
  /** mqtt://portal:{password}@127.0.0.1:{port}: the portal's own user (dynsec admin). */
  portalUrl: string;
  /** mqtt://127.0.0.1:{port}, no credentials. */
  url: string;
  /** The broker's log so far (connections, refusals, disconnections). */
  log(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function untilListening(port: number, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited: ${readFileSync(logFile, 'utf8')}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`mosquitto did not listen on ${port}`);
}

/** `verbose`: the broker logs every packet (which subscriber each message went to). */
export async function startPrivateBroker(options: { verbose?: boolean } = {}): Promise<PrivateBroker> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-mosquitto-'));
  const password = randomBytes(12).toString('hex');
  const dynsec = join(dir, 'dynamic-security.json');
  const init = spawnSync('mosquitto_ctrl', ['dynsec', 'init', dynsec, 'portal', password], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`mosquitto_ctrl dynsec init failed: ${init.stderr}`);
  // Mosquitto started as root runs as user mosquitto, and writes the plugin's file on each change.
  chmodSync(dir, 0o777);
  chmodSync(dynsec, 0o666);
  const port = await freePort();
  const logFile = join(dir, 'mosquitto.log');
  // The settings README 'Running several instances' asks for: persistent subscriber sessions
  // keep what an instance had not acknowledged, with room for what arrives while it restarts.
  writeFileSync(
    join(dir, 'mosquitto.conf'),
    [
      'per_listener_settings false',
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `plugin ${DYNSEC_PLUGIN}`,
      `plugin_opt_config_file ${dynsec}`,
      'persistence false',
      'max_queued_messages 1000000',
      'persistent_client_expiration 1h',
      'log_type error',
      'log_type warning',
      'log_type notice',
      'log_type information',
      ...(options.verbose ? ['log_type debug'] : []),
      'connection_messages true',
      `log_dest file ${logFile}`,
      '',
    ].join('\n'),
  );
  const broker = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: ['ignore', 'ignore', 'ignore'] });
  await untilListening(port, broker, logFile);
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    portalUrl: `mqtt://portal:${password}@127.0.0.1:${port}`,
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    async stop() {
      if (broker.exitCode === null) {
        broker.kill('SIGTERM');
        await new Promise((resolve) => broker.once('exit', resolve));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
