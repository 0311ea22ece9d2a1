import { useMemo } from 'react';
import { chartableKeys, type ChartKeyKind } from '@portal/core';

type Latest = Record<string, { v: unknown } | null | undefined>;

/**
 * The keys a chart can plot with their kind (core chartableKeys) from the device's newest values
 * (DATA_latest), as one Map that stays the same while the keys and kinds do: new readings of the
 * same keys do not draw the charts anew (which would lose a zoom).
 */
export function useKeyKinds(latest: Latest | undefined): ReadonlyMap<string, ChartKeyKind> {
  const text = chartableKeys(latest ?? {})
    .map((k) => `${k.key}:${k.kind}`)
    .join(',');
  return useMemo(
    () =>
      new Map(
        text === ''
          ? []
          : text.split(',').map((pair) => {
              const at = pair.lastIndexOf(':');
              return [pair.slice(0, at), pair.slice(at + 1) as ChartKeyKind] as const;
            }),
      ),
    [text],
  );
}
