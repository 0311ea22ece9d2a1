import { useCallback, useRef, type RefObject } from 'react';
import type { ExportTable } from '@portal/core';

/** What a widget exports right now (its rows as filtered and sorted), or null before it has any. */
export type ExportGetter = () => ExportTable | null;

/** Where a widget puts its getter (useImperativeHandle) and where its export menu reads it. */
export type ExportSource = RefObject<ExportGetter | null>;

/**
 * One export source per widget id, the same object on every render: the widget fills it, the
 * export menu in the widget card's header reads it when the user asks for a file.
 */
export function useExportSources(): (id: string) => ExportSource {
  const sources = useRef(new Map<string, ExportSource>());
  return useCallback((id: string) => {
    let source = sources.current.get(id);
    if (!source) {
      source = { current: null };
      sources.current.set(id, source);
    }
    return source;
  }, []);
}
