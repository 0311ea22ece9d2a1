import { useMutation } from '@tanstack/react-query';
import type { LoginBody, LoginResponse } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/auth/login: signed in, or a multi-factor challenge follows. */
export function login(body: LoginBody): Promise<LoginResponse> {
  return api.post<LoginResponse>('/auth/login', body, { area: 'user' });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
