/**
 * The asset_type presets (ledger DLG-17; spec 2 section 3: about 53 values): the list the Asset
 * Notes dialog offers (apps/web device-notes asset-notes-dialog.tsx imports ASSET_TYPES).
 */
import { describe, expect, it } from 'vitest';
import { ASSET_TYPES, ASSET_TYPE_PRESET_COUNT_APPROX, isAssetType } from '../src/index';

describe('asset_type presets (DLG-17)', () => {
  it('about 53 entries: within two of the count the specification gives', () => {
    expect(ASSET_TYPE_PRESET_COUNT_APPROX).toBe(53);
    expect(Math.abs(ASSET_TYPES.length - ASSET_TYPE_PRESET_COUNT_APPROX)).toBeLessThanOrEqual(2);
  });

  it('each once, alphabetical, Other last; only a preset is one', () => {
    expect(new Set(ASSET_TYPES).size).toBe(ASSET_TYPES.length);
    const named = ASSET_TYPES.slice(0, -1);
    expect([...named].sort((a, b) => a.localeCompare(b))).toEqual(named);
    expect(ASSET_TYPES.at(-1)).toBe('Other');
    expect(isAssetType('Air Compressor')).toBe(true);
    expect(isAssetType('air compressor')).toBe(false);
    expect(isAssetType(53)).toBe(false);
  });
});
