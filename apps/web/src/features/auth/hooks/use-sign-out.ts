import { startTransition, useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '@/lib/auth/auth-context';
import { logout } from '../api/logout';

async function endServerSession(): Promise<void> {
  try {
    await logout();
  } catch (error) {
    // the cookie may already be gone; the user is signed out either way
    console.error('Logout failed:', error);
  }
}

/**
 * Ends the session: POST logout, then mark the user signed out. The cached queries are
 * dropped by the app once the signed-out state has rendered (see app/start-up.ts), so no
 * screen of the previous user refetches in between. Used by the verification page.
 */
export function useEndSession() {
  const { setSignedOut } = useAuth();
  return useCallback(async () => {
    await endServerSession();
    setSignedOut();
  }, [setSignedOut]);
}

/**
 * Logout of the navigation bar: end the session and go to '/'. The move and the signed-out
 * state render together, so the page being left never redirects to the sign-in screen itself.
 */
export function useSignOut() {
  const { setSignedOut } = useAuth();
  const navigate = useNavigate();
  return useCallback(async () => {
    await endServerSession();
    startTransition(() => {
      void navigate('/', { replace: true });
      setSignedOut();
    });
  }, [navigate, setSignedOut]);
}
