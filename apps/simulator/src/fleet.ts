/**
 * A fleet of simulated devices over MQTT or HTTP, with bounded concurrency (at most
 * `concurrency` contacts in flight), first contacts spread over the first seconds, and
 * per-device reconnects with exponential backoff.
 */
import { scaledTimers, systemClock, type Clock } from './clock';
import { SimDevice, type Gate } from './device';
import { DEVICE_COUNTERS, emptyDeviceStats, type DeviceStats } from './device-stats';
import { HttpLink, MqttLink, type DeviceLink } from './links';
import { isModelName, type ModelName } from './models';
import { hashSeed } from './prng';

export interface FleetDevice {
  id: string;
  key: string;
  model: ModelName | string;
  seed?: string | number;
}

export interface FleetOptions {
  devices: FleetDevice[];
  transport: 'mqtt' | 'http';
  mqttUrl?: string;
  /** The portal's HTTP address: the HTTP transport's, and where MQTT devices download files. */
  httpUrl?: string;
  /** Time multiplier: waits between contacts are this many times shorter (timestamps stay real). */
  speed?: number;
  clock?: Clock;
  /** Initial base_interval / transmit_interval of every device (a delivered config overrides). */
  baseInterval?: number;
  transmitInterval?: number;
  /** Config settings every device holds when it starts (e.g. its script's triggers); a delivered config merges in. */
  settings?: Record<string, unknown>;
  /** Contacts in flight at once (default 16). */
  concurrency?: number;
  /** Spread first contacts over this many ms (default min(interval, 10 s); 0 = all at once). */
  staggerMs?: number;
  diagEvery?: number;
  maxBackoffMs?: number;
  /** Builds the link of a device (tests); by default MQTT or HTTP per `transport`. */
  linkFactory?: (device: FleetDevice) => DeviceLink;
  log?: (line: string) => void;
}

export interface FleetStats extends Omit<DeviceStats, 'lastError'> {
  devices: number;
  online: number;
  queued: number;
  startedAt: number;
  lastError: string | null;
}

export interface Fleet {
  readonly devices: SimDevice[];
  readonly stats: FleetStats;
  stop(): Promise<void>;
}

/** A gate that lets at most `limit` tasks run at once, first come first served. */
export function createGate(limit: number): Gate {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    active -= 1;
    waiting.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      release();
    }
  };
}

export function startFleet(options: FleetOptions): Fleet {
  if (options.devices.length === 0) throw new Error('No devices given');
  const baseClock = options.clock ?? systemClock;
  const clock = scaledTimers(baseClock, options.speed ?? 1);
  const gate = createGate(Math.max(1, options.concurrency ?? 16));
  const interval = (options.baseInterval ?? 60) * (options.transmitInterval ?? 1) * 1000;
  const stagger = options.staggerMs ?? Math.min(interval, 10_000);
  const makeLink =
    options.linkFactory ??
    ((d: FleetDevice): DeviceLink => {
      if (options.transport === 'mqtt') {
        if (!options.mqttUrl) throw new Error('mqttUrl is required for the mqtt transport');
        return new MqttLink(options.mqttUrl, d, { httpUrl: options.httpUrl });
      }
      if (!options.httpUrl) throw new Error('httpUrl is required for the http transport');
      return new HttpLink(options.httpUrl, d);
    });

  const devices = options.devices.map((d) => {
    if (!isModelName(d.model)) throw new Error(`Unknown model ${d.model} for ${d.id}`);
    return new SimDevice({
      id: d.id,
      key: d.key,
      model: d.model,
      seed: d.seed ?? d.id,
      link: makeLink(d),
      clock,
      gate,
      config: { base_interval: options.baseInterval, transmit_interval: options.transmitInterval },
      settings: options.settings,
      startDelayMs: stagger > 0 ? hashSeed(d.id) % stagger : 0,
      diagEvery: options.diagEvery,
      maxBackoffMs: options.maxBackoffMs,
      log: options.log,
    });
  });
  const startedAt = baseClock.now();
  for (const device of devices) device.start();

  let stopped: Promise<void> | null = null;
  return {
    devices,
    get stats(): FleetStats {
      const total: FleetStats = { ...emptyDeviceStats(), devices: devices.length, online: 0, queued: 0, startedAt };
      for (const d of devices) {
        if (d.connected) total.online += 1;
        total.queued += d.queued;
        for (const key of DEVICE_COUNTERS) {
          total[key] += d.stats[key];
        }
        if (d.stats.lastError) total.lastError = `${d.id}: ${d.stats.lastError}`;
      }
      return total;
    },
    stop() {
      stopped ??= Promise.all(devices.map((d) => d.stop())).then(() => undefined);
      return stopped;
    },
  };
}

/** One line of fleet statistics (the CLI prints one a minute). */
export function statsLine(stats: FleetStats, now: number): string {
  const up = Math.round((now - stats.startedAt) / 1000);
  return [
    new Date(now).toISOString().slice(11, 19),
    `up ${up}s`,
    `online ${stats.online}/${stats.devices}`,
    `records ${stats.records}`,
    `contacts ${stats.contacts}`,
    `diag ${stats.diags}`,
    `commands ${stats.commands}`,
    `acks ${stats.acks}`,
    `triggers ${stats.triggers}`,
    `configs ${stats.configs}`,
    `files ${stats.files}`,
    `firmware ${stats.firmware}`,
    `queued ${stats.queued}`,
    `errors ${stats.errors}`,
    `reconnects ${stats.reconnects}`,
    ...(stats.lastError && stats.errors > 0 ? [`last error: ${stats.lastError}`] : []),
  ].join('  ');
}
