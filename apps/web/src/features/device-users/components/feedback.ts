import { SUCCESS_TITLE, TOAST_LIFE_MS, mutationSuccessMessage, toastId } from '@portal/core';
import { showToast } from '@/lib/toast';

/** A change went through: a success toast with the server's message ('User added.', 'Permission changed.'). */
export function toastSuccess(answer: unknown): void {
  const detail = mutationSuccessMessage(answer);
  showToast({ severity: 'success', summary: SUCCESS_TITLE, detail, life: TOAST_LIFE_MS }, toastId(detail));
}
