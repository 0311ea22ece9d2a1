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

/**
 * The sections of a device's Data page the user folded, kept in local storage per device (and
 * cleared with the favourites when another user signs in); every section starts open.
 */
export function useCollapsedSections(deviceid: string): [ReadonlySet<string>, (sectionId: string) => void] {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set(readStored()[deviceid] ?? []));
  const toggle = useCallback(
    (sectionId: string) => {
      setCollapsed((current) => {
        const next = new Set(current);
        if (next.has(sectionId)) next.delete(sectionId);
        else next.add(sectionId);
        try {
          const stored = readStored();
          delete stored[deviceid];
          if (next.size > 0) stored[deviceid] = [...next].slice(0, MAX_SECTIONS);
          const kept = Object.fromEntries(Object.entries(stored).slice(-MAX_DEVICES));
          localStorage.setItem(STORAGE_KEYS.collapsedSections, JSON.stringify(kept));
        } catch {
          // storage unavailable (private mode): the sections stay folded for this visit
        }
        return next;
      });
    },
    [deviceid],
  );
  return [collapsed, toggle];
}
