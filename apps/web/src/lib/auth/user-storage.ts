import { STORAGE_KEYS, USER_SCOPED_STORAGE_KEYS } from '@portal/core';

/**
 * When a different user signs in on this browser, their predecessor's favourites, recent list
 * and script theme are removed (spec 1 section 4), then the new user id is remembered.
 */
export function rememberSignedInUser(userId: string): void {
  try {
    const last = localStorage.getItem(STORAGE_KEYS.lastUser);
    if (last === userId) return;
    for (const key of USER_SCOPED_STORAGE_KEYS) localStorage.removeItem(key);
    localStorage.setItem(STORAGE_KEYS.lastUser, userId);
  } catch {
    // storage unavailable (private mode): nothing to clear
  }
}
