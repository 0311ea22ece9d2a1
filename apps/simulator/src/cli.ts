/**
 * npm run simulate -- (--devices-file creds.json | --device ID:KEY:MODEL ...)
 *                     (--mqtt mqtt://localhost:1883 [--http http://localhost:8080] | --http http://localhost:8080)
 *                     [--interval 60] [--transmit 1] [--duration 0] [--speed 1] [--concurrency 16]
 *
 * With --mqtt, --http is where devices download files (Admin.File); alone, it is the transport.
 * creds.json: an array of {id, key, model} (or {devices: [...]}). Prints one line of fleet
 * statistics a minute (and at the end); stops cleanly on SIGINT / SIGTERM or after --duration
 * seconds.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startFleet, statsLine, type FleetDevice } from './fleet';
import { MODEL_NAMES } from './models';

const USAGE = `Usage: npm run simulate -- (--devices-file FILE | --device ID:KEY:MODEL ...)
       (--mqtt mqtt://HOST:1883 [--http http://HOST:8080 for file downloads] | --http http://HOST:8080)
       [--interval SECONDS] [--transmit N] [--duration SECONDS] [--speed X] [--concurrency N] [--verbose]
Models: ${MODEL_NAMES.join(', ')}`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function number(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) fail(`--${name} must be a non-negative number`);
  return n;
}

function readDevices(file: string): FleetDevice[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const list = Array.isArray(parsed) ? parsed : (parsed as { devices?: unknown }).devices;
  if (!Array.isArray(list)) fail(`${file}: expected an array of {id, key, model}`);
  return list.map((d: unknown, i) => {
    const { id, key, model } = (d ?? {}) as Record<string, unknown>;
    if (typeof id !== 'string' || typeof key !== 'string' || typeof model !== 'string') {
      fail(`${file}: device ${i} needs id, key and model strings`);
    }
    return { id, key, model };
  });
}

function parseDevice(spec: string): FleetDevice {
  const [id, key, model, ...rest] = spec.split(':');
  if (!id || !key || !model || rest.length > 0) fail(`--device ${spec}: expected ID:KEY:MODEL`);
  return { id, key, model };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'devices-file': { type: 'string' },
      device: { type: 'string', multiple: true },
      mqtt: { type: 'string' },
      http: { type: 'string' },
      interval: { type: 'string' },
      transmit: { type: 'string' },
      duration: { type: 'string' },
      speed: { type: 'string' },
      concurrency: { type: 'string' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const devices = [
    ...(values['devices-file'] ? readDevices(values['devices-file']) : []),
    ...(values.device ?? []).map(parseDevice),
  ];
  if (devices.length === 0) fail('No devices: give --devices-file or --device');
  if (!values.mqtt && !values.http) fail('Give --mqtt or --http');
  const duration = number(values.duration, 'duration', 0);

  const fleet = startFleet({
    devices,
    transport: values.mqtt ? 'mqtt' : 'http',
    mqttUrl: values.mqtt,
    httpUrl: values.http,
    baseInterval: number(values.interval, 'interval', 60) || 60,
    transmitInterval: number(values.transmit, 'transmit', 1) || 1,
    speed: number(values.speed, 'speed', 1) || 1,
    concurrency: number(values.concurrency, 'concurrency', 16) || 16,
    log: values.verbose ? (line) => console.log(line) : undefined,
  });
  console.log(
    `Simulating ${devices.length} device(s) over ${values.mqtt ? `MQTT ${values.mqtt}` : `HTTP ${values.http}`}` +
      `${duration ? ` for ${duration}s` : ''}; Ctrl-C stops.`,
  );

  let stopping = false;
  const ticker = setInterval(() => console.log(statsLine(fleet.stats, Date.now())), 60_000);
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(ticker);
    clearTimeout(timer);
    console.log(statsLine(fleet.stats, Date.now()));
    await fleet.stop();
    console.log(`Stopped (${why}).`);
    process.exit(0);
  };
  const timer = duration > 0 ? setTimeout(() => void stop(`${duration}s elapsed`), duration * 1000) : undefined;
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
