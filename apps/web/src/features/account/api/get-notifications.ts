import { useQuery } from '@tanstack/react-query';
import type { NotificationsResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** GET /api/account/notifications: the caller's alert e-mails and SMS, newest first. */
export function useNotifications() {
  return useQuery({
    queryKey: queryKeys.account.notifications,
    queryFn: ({ signal }) => api.get<NotificationsResponse>('/account/notifications', { area: 'user', signal }),
    staleTime: 0,
    meta: { silent: true },
  });
}
