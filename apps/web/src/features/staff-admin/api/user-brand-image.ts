import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserBrandImagePutBody, UserBrandImageResponse } from '@portal/core';
import { api } from '@/lib/api';
import { readAsBase64 } from '@/lib/read-as-base64';
import * as queryKeys from '@/lib/query-keys';

const path = (userid: string) => `/staff/user/${encodeURIComponent(userid)}/brand-image`;

/**
 * Sets (a file) or removes (null) a user's brand image, the sub-brand logo of BRD-13: PUT or
 * DELETE /api/staff/user/{userid}/brand-image. The dossier is read again after; the user's session
 * carries the new address from its next check of the user info.
 */
export function useUserBrandImage(userid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File | null): Promise<UserBrandImageResponse> => {
      if (file === null) return api.delete<UserBrandImageResponse>(path(userid), undefined, { area: 'user' });
      const body: UserBrandImagePutBody = { dataBase64: await readAsBase64(file) };
      return api.put<UserBrandImageResponse>(path(userid), body, { area: 'user' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.staff.user(userid) }),
  });
}
