import { useEffect, useRef } from 'react';
import { useMatch } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { homeRedirectFor } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { useUserLogin } from '@/features/account/api/get-user-login';
import { useGroups } from '@/features/groups/api/get-groups';
import { prefetchGroupHome } from './routes/home-prefetch';

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

/**
 * On a group's page (/group/{groupid}, /group/{groupid}/{viewid}), asks for the dashboard's data
 * and the widgets' code as soon as the session check has said the user is signed in: the data
 * call then runs while home's own code loads, instead of after it (issue 12).
 */
export function usePrefetchGroupHome(): void {
  const queryClient = useQueryClient();
  const { session } = useAuth();
  const atGroup = useMatch('/group/:groupid');
  const atView = useMatch('/group/:groupid/:viewid');
  const view = atView && atView.params.viewid !== 'settings' ? atView : null;
  const groupid = atGroup?.params.groupid ?? view?.params.groupid;
  const viewid = atGroup ? undefined : view?.params.viewid;
  const wanted = session.isAuthenticated && !homeRedirectFor(session.userGroups);
  useEffect(() => {
    if (!wanted || !groupid) return;
    prefetchGroupHome(queryClient, groupid, viewid);
  }, [queryClient, wanted, groupid, viewid]);
}
