/**
 * Retention: data older than each device's plan keeps it (records, events, diagnostics, hourly
 * and daily rollups, event counts) is deleted in bounded statements, so ingest's transactions get the tables
 * between two of them; each device's deletion goes to its server log.
 */
import type { FastifyBaseLogger } from 'fastify';
import { PLANS, dataPlan } from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { DeviceRegistry } from '../devices/devices.registry';
import * as repo from './telemetry-retention.repository';

export interface RetentionResult {
  deviceId: string;
  cutoff: number;
  records: number;
  events: number;
  diagnostics: number;
  /** Hourly rollups. */
  rollups: number;
  dailyRollups: number;
  /** Hourly and daily event counts. */
  eventCounts: number;
}

export interface RetentionOptions {
  /** How often the retention job runs (0: never; tests call runRetention). */
  retentionIntervalMs: number;
  /** Rows deleted per statement by retention, so ingest never waits long behind it. */
  retentionBatchSize: number;
}

type Counted = 'records' | 'events' | 'diagnostics' | 'rollups' | 'dailyRollups' | 'eventCounts';

const TABLES: readonly [repo.RetentionTable, Counted][] = [
  ['records', 'records'],
  ['events', 'events'],
  ['diagnostics', 'diagnostics'],
  ['rollup_hour', 'rollups'],
  ['rollup_day', 'dailyRollups'],
  ['event_hour', 'eventCounts'],
  ['event_day', 'eventCounts'],
];

export function createRetention(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  deviceLog: DeviceLogService;
  devices: Pick<DeviceRegistry, 'getDevice'>;
  /** Runs first: unacknowledged commands past their expiry become expired. */
  expireCommands(now: Date): Promise<number>;
  /** Read at each use, so a test may change the batch size. */
  options: RetentionOptions;
}) {
  const { db, clock, log, deviceLog, devices, options } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  async function run(now: Date): Promise<RetentionResult[]> {
    await deps.expireCommands(now);
    const results: RetentionResult[] = [];
    const limit = options.retentionBatchSize;
    for (const deviceId of await repo.devicesWithData(db)) {
      const device = await devices.getDevice(deviceId);
      if (!device) continue;
      const days = PLANS[dataPlan(device, now.getTime())].dataStorageDays;
      const cutoff = now.getTime() / 1000 - days * 86_400;
      const result: RetentionResult = {
        deviceId,
        cutoff,
        records: 0,
        events: 0,
        diagnostics: 0,
        rollups: 0,
        dailyRollups: 0,
        eventCounts: 0,
      };
      for (const [table, field] of TABLES) {
        for (;;) {
          const n = await repo.deleteOlderThan(db, table, deviceId, cutoff, limit);
          result[field] += n;
          if (n < limit) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      // The newest messages are a copy of events: not counted again.
      await repo.trimEventNewest(db, deviceId, cutoff);
      if (
        result.records +
          result.events +
          result.diagnostics +
          result.rollups +
          result.dailyRollups +
          result.eventCounts >
        0
      ) {
        const when = new Date(cutoff * 1000).toISOString();
        const message = `retention: deleted ${result.records} records older than ${when} (${days} days), ${result.events} events, ${result.diagnostics} diagnostics, ${result.rollups} hourly and ${result.dailyRollups} daily rollups, ${result.eventCounts} event counts`;
        log.info({ deviceId }, message);
        await deviceLog.write(deviceId, 'retention', message);
        results.push(result);
      }
    }
    return results;
  }

  return {
    /**
     * Deletes data older than each device's plan keeps it; first expires unacknowledged
     * commands older than COMMAND_EXPIRY_S.
     */
    run,

    /** Starts the periodic job (stopped by close). */
    start(): void {
      if (timer || options.retentionIntervalMs <= 0) return;
      timer = setInterval(() => {
        if (running) return;
        running = run(clock.now())
          .catch((error: unknown) => log.error({ err: error }, 'retention failed'))
          .finally(() => (running = null));
      }, options.retentionIntervalMs);
      timer.unref();
    },

    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
