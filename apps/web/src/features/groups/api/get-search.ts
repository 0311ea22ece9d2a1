import { queryOptions } from '@tanstack/react-query';
import type { SearchResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { SearchResponse };

/** GET /api/search?q=: the devices and groups the caller can see whose id or name holds the text (server-side, any fleet size). */
export function getSearch(q: string, signal?: AbortSignal): Promise<SearchResponse> {
  return api.get<SearchResponse>(`/search?q=${encodeURIComponent(q)}`, {
    area: 'group',
    ...(signal ? { signal } : {}),
  });
}

/** A search answer is kept a minute: typing the same text again asks nothing. */
export function searchQueryOptions(q: string) {
  return queryOptions({
    queryKey: queryKeys.search(q),
    queryFn: ({ signal }) => getSearch(q, signal),
    staleTime: 60_000,
    retry: false,
    // The search box stays quiet on failure: no toast, just no suggestions.
    meta: { silent: true },
  });
}
