import { useMutation } from '@tanstack/react-query';
import type { ProfileUpdateBody, UserInfo } from '@portal/core';
import { api } from '@/lib/api';

/** PUT /api/account/profile: phone ('' clears it) and marketing opt-in. */
export function updateProfile(body: ProfileUpdateBody): Promise<UserInfo> {
  return api.put<UserInfo>('/account/profile', body, { area: 'user' });
}

export function useUpdateProfile() {
  return useMutation({ mutationFn: updateProfile });
}
