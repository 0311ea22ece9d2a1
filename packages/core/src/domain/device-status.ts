/**
 * Whether a device is reporting (spec 2 section 4, DESIGN.md section 5): one rule, one status, for
 * every place that shows it — the device page's header and cards now, the group table and map
 * later. Pure: the caller passes the device's newest record time, its last contact, its interval
 * and now.
 */
import { expectedIntervalSeconds, offlineAfterSeconds } from './constants';
import { NO_RECENT_CONTACT } from './screen-messages';

/** A device's contact status, from the best to the worst. */
export const CONTACT_STATUSES = ['online', 'noRecentContact', 'offline'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/** The state colours of UI.md a status is drawn in: green, amber, grey. */
export type ContactStatusColour = 'normal' | 'warning' | 'muted';

/** What each status shows: its words and its colour. */
export const CONTACT_STATUS_DISPLAY = {
  online: { label: 'Online', colour: 'normal' },
  noRecentContact: { label: NO_RECENT_CONTACT, colour: 'warning' },
  offline: { label: 'Offline', colour: 'muted' },
} as const satisfies Record<ContactStatus, { label: string; colour: ContactStatusColour }>;

export interface ContactStatusInput {
  /** Epoch seconds of the device's newest record, or null when it has none. */
  lastRecordS: number | null | undefined;
  /**
   * Epoch seconds of the device's last contact of any kind, when known; the newest record counts as
   * contact too, so the later of the two is used.
   */
  lastContactS?: number | null | undefined;
  /**
   * The device's interval in seconds (base_interval x transmit_interval of its config:
   * expectedIntervalSeconds); null or not a positive number when unknown, which counts as the
   * default config's 60 x 1.
   */
  intervalS: number | null | undefined;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The one contact status of a device at `nowMs`:
 * - 'offline' when its last contact is older than max(interval + 60, 360) s, or it never made any;
 * - else 'noRecentContact' when its newest record is older than its interval (or it has none);
 * - else 'online'. A time ahead of now (a device clock running fast) counts as now.
 * Exactly at a limit is still the better status; one second past it is the worse one.
 */
export function contactStatus(input: ContactStatusInput, nowMs: number): ContactStatus {
  const intervalS = finite(input.intervalS) && input.intervalS > 0 ? input.intervalS : expectedIntervalSeconds();
  const nowS = nowMs / 1000;
  const record = finite(input.lastRecordS) ? input.lastRecordS : null;
  const contacts = [record, input.lastContactS].filter(finite);
  if (contacts.length === 0) return 'offline';
  if (nowS - Math.max(...contacts) > offlineAfterSeconds(intervalS)) return 'offline';
  if (record === null || nowS - record > intervalS) return 'noRecentContact';
  return 'online';
}

/** True when a status means the values shown are the last known ones (muted, 'Last known value from {time}'). */
export function showsLastKnownValues(status: ContactStatus): boolean {
  return status !== 'online';
}
