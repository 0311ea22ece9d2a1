import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** GET /api/user-login: the signed-in user's info. */
export function getUserLogin(): Promise<UserInfo> {
  return api.get<UserInfo>('/user-login', { area: 'user' });
}

export function userLoginQueryOptions() {
  return queryOptions({ queryKey: queryKeys.account.userLogin, queryFn: getUserLogin, staleTime: 60_000 });
}

export function useUserLogin(enabled = true) {
  return useQuery({ ...userLoginQueryOptions(), enabled });
}
