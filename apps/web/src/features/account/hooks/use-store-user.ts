import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { UserInfo } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import * as queryKeys from '@/lib/query-keys';

/** Keeps the cached user info and the session state in step with an answer carrying UserInfo. */
export function useStoreUser() {
  const queryClient = useQueryClient();
  const { setUser } = useAuth();
  return useCallback(
    (user: UserInfo) => {
      queryClient.setQueryData(queryKeys.account.userLogin, user);
      setUser(user);
    },
    [queryClient, setUser],
  );
}
