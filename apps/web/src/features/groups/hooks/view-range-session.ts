/**
 * A range chosen by a member who may not edit the view (OPERATOR, VIEW): kept for this browser tab
 * only (sessionStorage, per group and view), never saved to the view (docs/decisions.md 'View
 * range of a non-editor'). Editors save their choice into the view instead.
 */
import { useCallback, useState } from 'react';
import {
  VIEW_RANGE_PRESETS,
  customTimeRange,
  dateRangeError,
  presetOfTimeRange,
  presetTimeRange,
  type TimeRange,
  type ViewRangePreset,
} from '@portal/core';

/** What the tab keeps: a preset's name, or a custom range's ends (epoch seconds). */
type Stored = { preset: Exclude<ViewRangePreset, 'custom'> } | { from: number; to: number };

function isPreset(value: unknown): value is Exclude<ViewRangePreset, 'custom'> {
  return value !== 'custom' && VIEW_RANGE_PRESETS.some((p) => p === value);
}

/** The stored choice as a range (core's presets and check; no Zod, which the entry chunk does without). */
function rangeOf(stored: unknown): TimeRange | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { preset, from, to } = stored as { preset?: unknown; from?: unknown; to?: unknown };
  if (isPreset(preset)) return presetTimeRange(preset) as TimeRange;
  if (typeof from !== 'number' || typeof to !== 'number' || dateRangeError(from, to) !== null) return null;
  return customTimeRange(from, to) as TimeRange;
}

function storedOf(range: TimeRange): Stored | null {
  const preset = presetOfTimeRange(range);
  if (preset && preset !== 'custom') return { preset };
  if (range.type === 'custom' && range.from !== undefined && range.to !== undefined)
    return { from: range.from, to: range.to };
  return null;
}

const keyOf = (groupid: string, viewid: string) => `portal.viewRange.${groupid}.${viewid}`;

/** The session's range for the view, if one was chosen and is still a valid range. */
export function readSessionRange(groupid: string, viewid: string): TimeRange | null {
  try {
    const raw = sessionStorage.getItem(keyOf(groupid, viewid));
    if (!raw) return null;
    return rangeOf(JSON.parse(raw));
  } catch {
    return null;
  }
}

function writeSessionRange(groupid: string, viewid: string, range: TimeRange | null): void {
  try {
    const stored = range ? storedOf(range) : null;
    if (stored) sessionStorage.setItem(keyOf(groupid, viewid), JSON.stringify(stored));
    else sessionStorage.removeItem(keyOf(groupid, viewid));
  } catch {
    // Storage full or blocked: the range still applies until the page is left.
  }
}

/** The session's range of one view and its setter (null clears it: the view's own range shows). */
export function useSessionRange(groupid: string, viewid: string) {
  const [state, setState] = useState(() => ({ id: keyOf(groupid, viewid), range: readSessionRange(groupid, viewid) }));
  const id = keyOf(groupid, viewid);
  // Another view (or group): read its own choice.
  const current = state.id === id ? state.range : readSessionRange(groupid, viewid);
  if (state.id !== id) setState({ id, range: current });
  const set = useCallback(
    (range: TimeRange | null) => {
      writeSessionRange(groupid, viewid, range);
      setState({ id: keyOf(groupid, viewid), range });
    },
    [groupid, viewid],
  );
  return [current, set] as const;
}
