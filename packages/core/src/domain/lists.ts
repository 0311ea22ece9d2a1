/** Favourites and recent lists kept in local storage (spec 1 sections 3 and 9, spec 2 section 9). */

/** Local-storage keys of the web app. */
export const STORAGE_KEYS = {
  favourites: 'portal.favourites',
  recent: 'portal.recent',
  scriptTheme: 'portal.scriptTheme',
  lastUser: 'portal.lastUser',
  /** The Data page sections each device's user folded (per device id). */
  collapsedSections: 'portal.collapsedSections',
} as const;

/** Keys cleared when the signed-in user changes: favourites, recent, the script theme and folded sections. */
export const USER_SCOPED_STORAGE_KEYS = [
  STORAGE_KEYS.favourites,
  STORAGE_KEYS.recent,
  STORAGE_KEYS.scriptTheme,
  STORAGE_KEYS.collapsedSections,
] as const;

/** Each list keeps at most this many entries. */
export const LIST_MAX_ENTRIES = 10;

export interface ListEntry {
  id: string;
  name: string;
  /** Epoch milliseconds of the visit or of adding the favourite. */
  ts: number;
}

const ENTRY_TEXT_MAX = 200;

/**
 * A stored entry read back: id 1-200 characters, name up to 200, ts a finite number; other
 * fields are dropped. A plain check rather than a schema: the entry chunk of the web app reads
 * the lists at start, and a schema here would pull Zod into every route (the sign-in budget).
 */
function readListEntry(item: unknown): ListEntry | null {
  if (typeof item !== 'object' || item === null) return null;
  const { id, name, ts } = item as Record<string, unknown>;
  const fits = (text: unknown, min: number): text is string =>
    typeof text === 'string' && text.length >= min && text.length <= ENTRY_TEXT_MAX;
  if (!fits(id, 1) || !fits(name, 0) || typeof ts !== 'number' || !Number.isFinite(ts)) return null;
  return { id, name, ts };
}

/**
 * Adds an entry: a repeated id replaces the old entry (new name and ts), and beyond `max`
 * the oldest entries by ts are dropped. Returns a new list, newest first.
 */
export function addListEntry(
  list: readonly ListEntry[] | null | undefined,
  entry: ListEntry,
  max: number = LIST_MAX_ENTRIES,
): ListEntry[] {
  const others = Array.isArray(list) ? list.filter((e) => e.id !== entry.id) : [];
  const next = [{ id: entry.id, name: entry.name, ts: entry.ts }, ...others];
  // Stable sort keeps the new entry ahead of an older one with the same ts.
  next.sort((a, b) => b.ts - a.ts);
  return next.slice(0, Math.max(0, Math.floor(max)));
}

/** Removes the entry with this id. */
export function removeListEntry(list: readonly ListEntry[] | null | undefined, id: string): ListEntry[] {
  return Array.isArray(list) ? list.filter((e) => e.id !== id) : [];
}

/** True when the list holds this id. */
export function hasListEntry(list: readonly ListEntry[] | null | undefined, id: string): boolean {
  return Array.isArray(list) && list.some((e) => e.id === id);
}

/** Adds the entry when absent, removes it when present (the favourite star). */
export function toggleListEntry(
  list: readonly ListEntry[] | null | undefined,
  entry: ListEntry,
  max: number = LIST_MAX_ENTRIES,
): ListEntry[] {
  return hasListEntry(list, entry.id) ? removeListEntry(list, entry.id) : addListEntry(list, entry, max);
}

/** Reads a stored list: bad JSON or bad entries are dropped, duplicates and overflow removed. */
export function parseStoredList(raw: string | null | undefined, max: number = LIST_MAX_ENTRIES): ListEntry[] {
  if (typeof raw !== 'string' || raw === '') return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  let list: ListEntry[] = [];
  // Oldest first, so a later duplicate of an id wins.
  const entries = data.flatMap((item) => {
    const entry = readListEntry(item);
    return entry ? [entry] : [];
  });
  entries.sort((a, b) => a.ts - b.ts);
  for (const entry of entries) list = addListEntry(list, entry, max);
  return list;
}

/**
 * The group home shows without a groupid in the URL (spec 1 section 2 'Home', HOME-02/03): the
 * newest entry of the recent list that is one of the user's groups, else the user's first group,
 * else null (no groups: the welcome panel).
 */
export function homeGroupId(
  recent: readonly ListEntry[] | null | undefined,
  groups: readonly { groupid: string }[] | null | undefined,
): string | null {
  const mine = Array.isArray(groups) ? groups : [];
  const ids = new Set(mine.map((g) => g.groupid));
  const entries = Array.isArray(recent) ? [...recent] : [];
  const newest = entries.sort((a, b) => b.ts - a.ts).find((entry) => ids.has(entry.id));
  return newest?.id ?? mine[0]?.groupid ?? null;
}
