import { useCallback, useState } from 'react';
import { STORAGE_KEYS } from '@portal/core';

/** Devices whose folded sections are remembered; the least recently changed are forgotten first. */
const MAX_DEVICES = 50;
/** Folded sections remembered per device. */
const MAX_SECTIONS = 50;
const MAX_ID_LENGTH = 64;

type Stored = Record<string, string[]>;

/** The stored map of device id to folded section ids; anything malformed reads as nothing folded. */
function readStored(): Stored {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEYS.collapsedSections) ?? '{}');
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Stored = {};
    for (const [device, ids] of Object.entries(parsed as Record<string, unknown>).slice(-MAX_DEVICES)) {
      if (!Array.isArray(ids)) continue;
      out[device] = ids
        .filter((id): id is string => typeof id === 'string' && id.length <= MAX_ID_LENGTH)
        .slice(0, MAX_SECTIONS);
    }
    return out;
  } catch {
    return {};
  }
}

/** Stores the device's folded sections (none: the device is forgotten), keeping the newest devices. */
function persist(deviceid: string, folded: ReadonlySet<string>): void {
  try {
    const stored = readStored();
    delete stored[deviceid];
    if (folded.size > 0) stored[deviceid] = [...folded].slice(0, MAX_SECTIONS);
    const kept = Object.fromEntries(Object.entries(stored).slice(-MAX_DEVICES));
    localStorage.setItem(STORAGE_KEYS.collapsedSections, JSON.stringify(kept));
  } catch {
    // storage unavailable (private mode): the sections stay folded for this visit
  }
}

/**
 * The sections of a device's Data page the user folded, kept in local storage per device (and
 * cleared with the favourites when another user signs in); every section starts open. Answers
 * the folded set, a toggle for one section, and a setter that folds or opens several at once
 * (the section index's 'Fold all' and a jump to a folded section).
 */
export function useCollapsedSections(
  deviceid: string,
): [ReadonlySet<string>, (sectionId: string) => void, (sectionIds: readonly string[], folded: boolean) => void] {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set(readStored()[deviceid] ?? []));
  const toggle = useCallback(
    (sectionId: string) => {
      setCollapsed((current) => {
        const next = new Set(current);
        if (next.has(sectionId)) next.delete(sectionId);
        else next.add(sectionId);
        persist(deviceid, next);
        return next;
      });
    },
    [deviceid],
  );
  const setFolded = useCallback(
    (sectionIds: readonly string[], folded: boolean) => {
      setCollapsed((current) => {
        const next = new Set(current);
        for (const id of sectionIds) {
          if (folded) next.add(id);
          else next.delete(id);
        }
        if (next.size === current.size && [...next].every((id) => current.has(id))) return current;
        persist(deviceid, next);
        return next;
      });
    },
    [deviceid],
  );
  return [collapsed, toggle, setFolded];
}
