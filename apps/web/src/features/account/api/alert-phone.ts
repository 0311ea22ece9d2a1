import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertPhone, AlertPhoneResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** GET /api/account/alert-phone: the phone SMS alerts go to, and one waiting for its code. */
export function useAlertPhone() {
  return useQuery({
    queryKey: queryKeys.account.alertPhone,
    queryFn: ({ signal }) => api.get<AlertPhone>('/account/alert-phone', { area: 'user', signal }),
    meta: { silent: true },
  });
}

function useStorePhone() {
  const queryClient = useQueryClient();
  return (answer: AlertPhoneResponse) => queryClient.setQueryData(queryKeys.account.alertPhone, answer.phone);
}

/** POST /api/account/alert-phone: a code goes to the phone by SMS. */
export function useSetAlertPhone() {
  const store = useStorePhone();
  return useMutation({
    mutationFn: (phone: string) => api.post<AlertPhoneResponse>('/account/alert-phone', { phone }, { area: 'user' }),
    onSuccess: store,
  });
}

/** POST /api/account/alert-phone/confirm: the code verifies the phone. */
export function useConfirmAlertPhone() {
  const store = useStorePhone();
  return useMutation({
    mutationFn: (code: string) =>
      api.post<AlertPhoneResponse>('/account/alert-phone/confirm', { code }, { area: 'user' }),
    onSuccess: store,
  });
}

/** DELETE /api/account/alert-phone: SMS alerts stop. */
export function useRemoveAlertPhone() {
  const store = useStorePhone();
  return useMutation({
    mutationFn: () => api.delete<AlertPhoneResponse>('/account/alert-phone', undefined, { area: 'user' }),
    onSuccess: store,
  });
}
