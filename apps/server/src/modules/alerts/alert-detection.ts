/**
 * Finding alerts: after ingest commits, the ALERT/WARN/ALARM events and the limit crossings (a key
 * crossing its display-settings limits, against the last state per device and key) in the records
 * of the devices someone watches; on the timer, watched devices gone offline (each silence once).
 * What it finds goes to the sender (alert-sending.ts).
 */
import {
  ALERTING_EVENT_LEVELS,
  RECORD_STRUCTURED_KEYS,
  alertLimits,
  appliedIntervalSeconds,
  contactStatus,
  crossesLimit,
  eventAlertText,
  eventLevel,
  limitAlertText,
  limitLevel,
  offlineAlertText,
  type AlertItem,
  type DeviceRecord,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import type { AlertSender } from './alert-sending';
import * as repo from './alerts.repository';

/** How long the set of watched devices is kept before it is read again (ms). */
const WATCHED_CACHE_MS = 5000;

const STRUCTURED = new Set<string>(RECORD_STRUCTURED_KEYS);

/** A record ingest stored (after its commit), with how it came. */
export interface StoredRecord {
  deviceId: string;
  record: DeviceRecord;
  source: 'mqtt' | 'http' | 'import';
}

export interface AlertDetection {
  /**
   * False when the watched set, read less than WATCHED_CACHE_MS ago, holds none of the records'
   * devices: ingest batches of devices nobody watches cost no query and queue no work.
   */
  mayConcern(stored: readonly StoredRecord[]): boolean;
  /** After an ingest commit: events and limit crossings of the devices someone watches. */
  detect(stored: readonly StoredRecord[]): Promise<void>;
  /** Devices someone watches that have gone offline since their last contact (each silence once). */
  checkOffline(): Promise<void>;
  /** A subscription was saved here: the watched set is read again at the next detection. */
  forgetWatched(): void;
}

export function createAlertDetection(deps: {
  db: Db;
  clock: Clock;
  sender: Pick<AlertSender, 'raise'>;
}): AlertDetection {
  const { db, clock } = deps;
  const raise = (deviceId: string, alerts: AlertItem[]) => deps.sender.raise(deviceId, alerts);

  /**
   * The devices someone watches for events or limits, read at most every WATCHED_CACHE_MS. A
   * subscription saved here refreshes it at once; one saved on another instance is seen within
   * WATCHED_CACHE_MS.
   */
  let watched: { ids: ReadonlySet<string>; readAt: number } | null = null;
  const watchedFresh = () => watched !== null && Date.now() - watched.readAt < WATCHED_CACHE_MS;
  async function watchedIds(): Promise<ReadonlySet<string>> {
    if (!watched || !watchedFresh())
      watched = { ids: new Set(await repo.selectWatchedDeviceIds(db)), readAt: Date.now() };
    return watched.ids;
  }

  /** The limit crossings in a device's new records (oldest first), against and updating its key states. */
  async function limitCrossings(device: repo.AlertDeviceRow, records: DeviceRecord[]): Promise<AlertItem[]> {
    const settings = device.display_settings ?? {};
    return db.transaction(async (tx) => {
      const states = new Map((await repo.lockKeyStates(tx, device.id)).map((s) => [s.key, s]));
      const changed = new Map<string, repo.KeyStateRow>();
      const out: AlertItem[] = [];
      for (const record of records) {
        for (const [key, value] of Object.entries(record)) {
          if (STRUCTURED.has(key) || typeof value !== 'number' || !Number.isFinite(value)) continue;
          const setting = Object.hasOwn(settings, key) ? settings[key] : undefined;
          const limits = alertLimits(key, setting);
          if (!limits) continue;
          const previous = changed.get(key) ?? states.get(key);
          if (previous && previous.ts >= record.ts) continue;
          const level = limitLevel(value, limits);
          if (level !== 'normal' && crossesLimit(previous?.level ?? null, level))
            out.push({ kind: 'limit', ts: record.ts, text: limitAlertText(key, setting, value, level) });
          changed.set(key, { key, level, ts: record.ts });
        }
      }
      await repo.upsertKeyStates(tx, device.id, [...changed.values()]);
      return out;
    });
  }

  async function detect(stored: readonly StoredRecord[]): Promise<void> {
    const byDevice = new Map<string, DeviceRecord[]>();
    for (const s of stored) {
      if (s.source === 'import') continue; // history brought in from a file is not news
      let list = byDevice.get(s.deviceId);
      if (!list) byDevice.set(s.deviceId, (list = []));
      list.push(s.record);
    }
    const ids = await watchedIds();
    for (const deviceId of [...byDevice.keys()]) if (!ids.has(deviceId)) byDevice.delete(deviceId);
    if (byDevice.size === 0) return;
    for (const watched of await repo.selectWatchedDevices(db, [...byDevice.keys()])) {
      const records = byDevice.get(watched.device_id)!.sort((a, b) => a.ts - b.ts);
      const device = await repo.findAlertDevice(db, watched.device_id);
      if (!device) continue;
      const alerts: AlertItem[] = [];
      if (watched.events) {
        for (const record of records) {
          for (const event of record.events ?? []) {
            const level = eventLevel(event);
            if (ALERTING_EVENT_LEVELS.includes(level))
              alerts.push({ kind: 'event', ts: record.ts, text: eventAlertText(level, event.msg, event.topic) });
          }
        }
      }
      if (watched.limits) alerts.push(...(await limitCrossings(device, records)));
      await raise(
        device.id,
        alerts.sort((a, b) => a.ts - b.ts),
      );
    }
  }

  async function checkOffline(): Promise<void> {
    const now = clock.now();
    for (const d of await repo.selectOfflineWatched(db)) {
      const lastContact = Number(d.last_contact);
      // The interval of the config the device applied and reported, as the device page takes it.
      const intervalS = appliedIntervalSeconds({ settings: { device: d.applied_device } });
      if (contactStatus({ lastRecordS: null, lastContactS: lastContact, intervalS }, now.getTime()) !== 'offline')
        continue;
      if (d.alerted_contact !== null && Number(d.alerted_contact) === lastContact) continue;
      if (!(await repo.claimOffline(db, d.id, lastContact, now))) continue;
      await raise(d.id, [{ kind: 'offline', ts: now.getTime() / 1000, text: offlineAlertText(lastContact) }]);
    }
  }
  return {
    mayConcern(stored) {
      return !(watched && watchedFresh() && !stored.some((s) => watched!.ids.has(s.deviceId)));
    },
    detect,
    checkOffline,
    forgetWatched() {
      watched = null;
    },
  };
}
