/**
 * Staff administration rules (DESIGN.md section 5: senquip_admin opens /sqadmin, /sqtools,
 * /sqstats): distributor fields, the device lists staff paste, the search query, and the figures
 * of the statistics page with their CSV export.
 */
import { DEVICE_ID_PATTERN, VIRTUAL_DEVICE_ID_PATTERN } from './ids';
import { csvRecord } from './table-export';
import { canUseDistributorTools, isStaffAdmin } from './roles';
import type { PlanName } from './plans';
import { isValidEmail, normaliseEmail } from './validation';

export const STAFF_LIMITS = {
  distributorNameMax: 80,
  distributorNotesMax: 1000,
  /** Devices assigned in one call. */
  assignMax: 500,
  /** Search text: at least 2 characters (an id prefix, a name, part of an address). */
  searchMin: 2,
  searchMax: 100,
  /** Results of each kind a search answers. */
  searchResults: 20,
  /** Server-log lines in a device's dossier. */
  dossierLogLines: 50,
  /** Months of subscriptions and revenue in the statistics. */
  statsMonths: 12,
} as const;

export const STAFF_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${STAFF_LIMITS.distributorNameMax} characters`,
  countryInvalid: 'Country must be a two-letter ISO 3166 code, e.g. AU',
  emailInvalid: 'Please enter a valid e-mail address',
  notesTooLong: `Notes must be at most ${STAFF_LIMITS.distributorNotesMax} characters`,
  distributorNotFound: 'Distributor not found',
  distributorNameTaken: 'A distributor with this name already exists',
  putNeedsId: 'PUT edits an existing distributor: give its id (POST with id 0 creates one)',
  postNeedsZero: 'POST creates a distributor: its id must be 0 (PUT edits an existing one)',
  deviceListEmpty: 'Give at least one device id',
  deviceListTooLong: `At most ${STAFF_LIMITS.assignMax} devices at a time`,
  deviceIdInvalid: 'Device ids are 9 letters or digits (or a virtual device id, 0- and 7 more)',
  searchTooShort: `Type at least ${STAFF_LIMITS.searchMin} characters`,
  searchTooLong: `Search text must be at most ${STAFF_LIMITS.searchMax} characters`,
  userNotFound: 'User not found',
} as const;

/** The message for devices that do not exist, naming them. */
export function unknownDevicesMessage(ids: readonly string[]): string {
  return `Unknown device${ids.length === 1 ? '' : 's'}: ${ids.join(', ')}`;
}

/** What an assignment answers: how many devices moved to (or left) a distributor. */
export function assignedMessage(count: number, distributorName: string | null): string {
  const devices = `${count} device${count === 1 ? '' : 's'}`;
  return distributorName === null
    ? `${devices} no longer assigned to a distributor`
    : `${devices} assigned to ${distributorName}`;
}

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  } catch {
    return null;
  }
})();

/** True for a two-letter ISO 3166-1 region code the runtime knows (upper case). */
export function isCountryCode(value: unknown): value is string {
  if (typeof value !== 'string' || !/^[A-Z]{2}$/.test(value)) return false;
  // user-assigned codes (AA, QM-QZ, XA-XZ, ZZ) name no country
  if (/^(AA|Q[M-Z]|X[A-Z]|ZZ)$/.test(value)) return false;
  if (!regionNames) return true;
  try {
    return regionNames.of(value) !== undefined;
  } catch {
    return false;
  }
}

/** The English name of a region code, or the code itself. */
export function countryName(code: string): string {
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A device id as staff type it: trimmed, upper case. */
export function isStaffDeviceId(value: unknown): value is string {
  return typeof value === 'string' && (DEVICE_ID_PATTERN.test(value) || VIRTUAL_DEVICE_ID_PATTERN.test(value));
}

/**
 * Device ids pasted as text (one a line, or separated by commas, semicolons or spaces): upper
 * case, each once, in the order given; `invalid` holds what is not a device id.
 */
export function parseDeviceList(text: string): { ids: string[]; invalid: string[] } {
  const ids: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    const token = raw.trim().toUpperCase();
    if (!token) continue;
    if (!isStaffDeviceId(token)) {
      if (!invalid.includes(token)) invalid.push(token);
    } else if (!ids.includes(token)) ids.push(token);
  }
  return { ids, invalid };
}

/** 'YYYY-MM' of an epoch-ms time, in UTC. */
export function monthKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** The last `count` months up to the one holding `nowMs` (UTC), oldest first, as 'YYYY-MM'. */
export function recentMonths(nowMs: number, count: number): string[] {
  const now = new Date(nowMs);
  const months: string[] = [];
  for (let i = count - 1; i >= 0; i -= 1) {
    months.push(monthKey(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)));
  }
  return months;
}

/** Money as a number with 2 decimals (sums of prices drift in binary floating point). */
export function money(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The statistics as figures a CSV holds: one section per table, a blank line between them. */
export interface StaffStatsForCsv {
  generatedAt: number;
  currency: string;
  totalDevices: number;
  activeLastDay: number;
  devicesByPlan: Record<PlanName, number>;
  devicesByModel: { model: string; count: number }[];
  devicesByDistributor: { name: string | null; count: number }[];
  months: { month: string; subscriptions: number; revenue: number }[];
  ingest: { recordsLastHour: number; perMinute: number };
}

/** The statistics page's CSV export: sections with a header row each. */
export function staffStatsCsv(stats: StaffStatsForCsv): string {
  const sections: string[] = [];
  const section = (header: readonly unknown[], rows: readonly (readonly unknown[])[]) => {
    sections.push([header, ...rows].map((r) => csvRecord(r)).join(''));
  };
  section(
    ['Figure', 'Value'],
    [
      ['Generated (UTC)', new Date(stats.generatedAt * 1000).toISOString()],
      ['Devices', stats.totalDevices],
      ['Active in the last day', stats.activeLastDay],
      ['Records in the last hour', stats.ingest.recordsLastHour],
      ['Records per minute', stats.ingest.perMinute],
    ],
  );
  section(
    ['Plan', 'Devices'],
    Object.entries(stats.devicesByPlan).map(([plan, count]) => [plan, count]),
  );
  section(
    ['Model', 'Devices'],
    stats.devicesByModel.map((r) => [r.model, r.count]),
  );
  section(
    ['Distributor', 'Devices'],
    stats.devicesByDistributor.map((r) => [r.name ?? 'No distributor', r.count]),
  );
  section(
    ['Month', 'New subscriptions', `Revenue (${stats.currency})`],
    stats.months.map((r) => [r.month, r.subscriptions, r.revenue.toFixed(2)]),
  );
  return sections.join('\r\n');
}

/**
 * Who may run a distributor action (reset-trial, no-pass) on a device: a staff admin on any
 * device (from /sqadmin and /sqtools), else a distributor holding ADMIN on it (Distributor Tools).
 */
export function canRunDistributorAction(userGroups: readonly string[] | null | undefined, role: unknown): boolean {
  return isStaffAdmin(userGroups) || canUseDistributorTools(userGroups, role);
}

/**
 * A device's add-without-password mode as stored: 'ADMIN' (on: the next user added becomes ADMIN
 * without the setup password, once) or 'INACTIVE' (Distributor Tools' no-pass, spec 2 section 6).
 */
export type NoPassMode = 'INACTIVE' | 'ADMIN';

/** True when the stored add-without-password mode is on ('ADMIN'); anything else is off. */
export function noPassActive(mode: unknown): boolean {
  return mode === 'ADMIN';
}

/** The stored mode a no-pass action asks for: 'ADMIN' turns it on, anything else ('DISABLE') off. */
export function noPassModeFor(asked: unknown): NoPassMode {
  return asked === 'ADMIN' ? 'ADMIN' : 'INACTIVE';
}

export type DistributorField = 'name' | 'contactEmail' | 'country' | 'notes';

/**
 * The distributor form's errors, field by field, by the rules of DistributorBodySchema (which uses
 * these messages): the browser checks the form with this, without Zod in its entry chunk.
 */
export function distributorFormErrors(
  form: Record<DistributorField, string>,
): Partial<Record<DistributorField, string>> {
  const errors: Partial<Record<DistributorField, string>> = {};
  const name = form.name.trim();
  if (name.length === 0) errors.name = STAFF_MESSAGES.nameRequired;
  else if (name.length > STAFF_LIMITS.distributorNameMax) errors.name = STAFF_MESSAGES.nameTooLong;
  if (!isValidEmail(normaliseEmail(form.contactEmail))) errors.contactEmail = STAFF_MESSAGES.emailInvalid;
  if (!isCountryCode(form.country.trim().toUpperCase())) errors.country = STAFF_MESSAGES.countryInvalid;
  if (form.notes.trim().length > STAFF_LIMITS.distributorNotesMax) errors.notes = STAFF_MESSAGES.notesTooLong;
  return errors;
}
