/**
 * The react-query client. Every failed data load shows the spec's error toast (spec 1
 * section 8): severity error, summary 'Error', 7000 ms, detail from loadErrorDetail, id from
 * the first 15 characters so identical errors replace each other.
 */
import { QueryCache, QueryClient } from '@tanstack/react-query';
import { TOAST_LIFE_MS, loadErrorDetail, toastId } from '@portal/core';
import { ApiError } from './api';
import { showToast } from './toast';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** Do not toast a failure of this query (the screen shows it itself). */
      silent?: boolean;
      /**
       * Do not toast this query's 404: the screen shows its own not-found state for it (a device
       * page's 'Device not found'), one message rather than a toast over it. Other failures toast.
       */
      notFoundShown?: boolean;
    };
  }
}

/** Shows the data-loading error toast for an error. */
export function showLoadErrorToast(error: unknown): void {
  const detail = loadErrorDetail(error);
  showToast({ severity: 'error', summary: 'Error', detail, life: TOAST_LIFE_MS }, toastId(detail));
}

function shouldRetry(failureCount: number, error: unknown): boolean {
  // Client errors will not change on retry; other failures are retried once.
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.silent) return;
        if (query.meta?.notFoundShown && error instanceof ApiError && error.status === 404) return;
        showLoadErrorToast(error);
      },
    }),
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
