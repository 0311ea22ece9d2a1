import { useMutation } from '@tanstack/react-query';
import type { MessageResponse, SignupBody } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/auth/signup: creates an account and sends the verification e-mail. */
export function signup(body: SignupBody): Promise<MessageResponse> {
  return api.post<MessageResponse>('/auth/signup', body, { area: 'user' });
}

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
