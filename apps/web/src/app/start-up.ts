import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/lib/auth/auth-context';
import { useUserLogin } from '@/features/account/api/get-user-login';
import { useGroups } from '@/features/groups/api/get-groups';

/** Removes any service worker left by an earlier version of the site (spec 1 section 4). */
export function useUnregisterServiceWorkers(): void {
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    navigator.serviceWorker
      .getRegistrations()
      .then((registrations) => Promise.all(registrations.map((registration) => registration.unregister())))
      .catch((error: unknown) => console.error('Service worker clean-up failed:', error));
  }, []);
}

/**
 * Once signed in, loads the group list and the user info; fresher user info updates the
 * session. When the user signs out (or another user signs in) every cached query is dropped
 * (spec 1 section 4), after the new state has rendered.
 */
export function useSessionData(): void {
  const queryClient = useQueryClient();
  const { session, user, setUser } = useAuth();
  const signedIn = session.isAuthenticated;
  useGroups(signedIn);
  const userLogin = useUserLogin(signedIn);
  const fresh = userLogin.data;

  useEffect(() => {
    if (signedIn && fresh && user && fresh.userId === user.userId && JSON.stringify(fresh) !== JSON.stringify(user)) {
      setUser(fresh);
    }
  }, [signedIn, fresh, user, setUser]);

  const previousUserId = useRef<string | null>(null);
  const userId = user?.userId ?? null;
  useEffect(() => {
    if (previousUserId.current !== null && previousUserId.current !== userId) queryClient.clear();
    previousUserId.current = userId;
  }, [userId, queryClient]);
}
