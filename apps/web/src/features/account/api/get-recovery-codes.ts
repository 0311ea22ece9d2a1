import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecoveryCodesStatus } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** GET /api/account/mfa/recovery-codes: how many unused recovery codes the user has. */
export function getRecoveryCodes(): Promise<RecoveryCodesStatus> {
  return api.get<RecoveryCodesStatus>('/account/mfa/recovery-codes', { area: 'user' });
}

export function recoveryCodesQueryOptions() {
  return queryOptions({ queryKey: queryKeys.account.recoveryCodes, queryFn: getRecoveryCodes, staleTime: 0 });
}

export function useRecoveryCodes(enabled = true) {
  return useQuery({ ...recoveryCodesQueryOptions(), enabled });
}
