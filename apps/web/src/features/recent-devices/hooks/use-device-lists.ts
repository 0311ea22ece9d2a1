/**
 * The favourites and recent lists in local storage (spec 1 sections 2, 3 and 9): entries
 * {id, name, ts}, at most 10 each, the core list rules deciding what is kept. Every component
 * using the lists re-renders when they change, in this tab or another one. A user change
 * clears them (lib/auth/user-storage.ts); the next read sees the empty lists.
 */
import { useSyncExternalStore } from 'react';
import {
  STORAGE_KEYS,
  addListEntry,
  hasListEntry,
  parseStoredList,
  removeListEntry,
  toggleListEntry,
  type ListEntry,
} from '@portal/core';

export type { ListEntry };

export interface DeviceLists {
  /** Newest first. */
  favourites: readonly ListEntry[];
  /** Newest first; devices, and groups the navigation helper recorded. */
  recent: readonly ListEntry[];
}

type ListName = keyof DeviceLists;

const KEYS: Record<ListName, string> = { favourites: STORAGE_KEYS.favourites, recent: STORAGE_KEYS.recent };
const listeners = new Set<() => void>();

function readRaw(name: ListName): string | null {
  try {
    return localStorage.getItem(KEYS[name]);
  } catch {
    return null; // storage unavailable: the lists are empty
  }
}

let cache: { favourites: string | null; recent: string | null; lists: DeviceLists } | null = null;

/** The lists as stored now; the same object while storage has not changed (useSyncExternalStore needs that). */
function snapshot(): DeviceLists {
  const favourites = readRaw('favourites');
  const recent = readRaw('recent');
  if (cache && cache.favourites === favourites && cache.recent === recent) return cache.lists;
  const lists = { favourites: parseStoredList(favourites), recent: parseStoredList(recent) };
  cache = { favourites, recent, lists };
  return lists;
}

const EMPTY: DeviceLists = { favourites: [], recent: [] };

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === KEYS.favourites || event.key === KEYS.recent) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}

function update(name: ListName, change: (list: readonly ListEntry[]) => ListEntry[]): void {
  const next = change(snapshot()[name]);
  try {
    localStorage.setItem(KEYS[name], JSON.stringify(next));
  } catch {
    return; // storage full or unavailable: keep the old list
  }
  for (const listener of listeners) listener();
}

/** Records a visit to a device or a group in the recent list (a repeated id moves to the top with its new name). */
export function recordRecentDevice(id: string, name: string, now: number = Date.now()): void {
  update('recent', (list) => addListEntry(list, { id, name: name || id, ts: now }));
}

/** Drops an id from the recent list (a group one has left or deleted: GRP-07). */
export function forgetRecentEntry(id: string): void {
  update('recent', (list) => removeListEntry(list, id));
}

/** Stars or un-stars a device (or group); returns true when it is a favourite afterwards. */
export function toggleFavouriteDevice(id: string, name: string, now: number = Date.now()): boolean {
  update('favourites', (list) => toggleListEntry(list, { id, name: name || id, ts: now }));
  return hasListEntry(snapshot().favourites, id);
}

/** True when the id is among the favourites. */
export function isFavouriteDevice(lists: DeviceLists, id: string): boolean {
  return hasListEntry(lists.favourites, id);
}

/** The favourites and recent lists, kept current. */
export function useDeviceLists(): DeviceLists {
  return useSyncExternalStore(subscribe, snapshot, () => EMPTY);
}
