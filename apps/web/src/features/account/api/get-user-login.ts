import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@portal/core';
import { api } from '@/lib/api';

/** GET /api/user-login: the signed-in user's info. */
export function getUserLogin(): Promise<UserInfo> {
  return api.get<UserInfo>('/user-login', { area: 'user' });
}

export const USER_LOGIN_QUERY_KEY = ['user-login'] as const;

export function userLoginQueryOptions() {
  return queryOptions({ queryKey: USER_LOGIN_QUERY_KEY, queryFn: getUserLogin, staleTime: 60_000 });
}

export function useUserLogin(enabled = true) {
  return useQuery({ ...userLoginQueryOptions(), enabled });
}
