import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApiCredentialCreateBody,
  ApiCredentialCreated,
  ApiCredentialsResponse,
  MessageResponse,
} from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** GET /api/api-credentials: the user's API keys (never their secrets), newest first. */
export function useApiCredentials() {
  return useQuery({
    queryKey: queryKeys.account.apiCredentials,
    queryFn: ({ signal }) => api.get<ApiCredentialsResponse>('/api-credentials', { area: 'user', signal }),
    staleTime: 0,
    meta: { silent: true },
  });
}

/** POST /api/api-credentials: a new key; the answer carries its secret, once. */
export function useCreateApiCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiCredentialCreateBody) =>
      api.post<ApiCredentialCreated>('/api-credentials', body, { area: 'user' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.apiCredentials }),
  });
}

/** DELETE /api/api-credentials/{id}: the key stops working at once. */
export function useDeleteApiCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<MessageResponse>(`/api-credentials/${encodeURIComponent(id)}`, undefined, { area: 'user' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.apiCredentials }),
  });
}
