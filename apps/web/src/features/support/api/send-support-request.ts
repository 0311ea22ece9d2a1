import { useMutation } from '@tanstack/react-query';
import type { SupportRequestBody, SupportRequestResponse } from '@portal/core';
import { api } from '@/lib/api';

export type { SupportRequestResponse };

/** POST /api/support-request: the subject, the message and the device it is about (when any). */
export function sendSupportRequest(body: SupportRequestBody): Promise<SupportRequestResponse> {
  return api.post<SupportRequestResponse>('/support-request', body, { area: 'user' });
}

/** Sends a support request; the page shows the answer (or the server's refusal) itself. */
export function useSendSupportRequest() {
  return useMutation({ mutationFn: sendSupportRequest });
}
