/**
 * Session state of the app (spec 1 sections 3 and 4). The session is checked once at start;
 * until it answers nothing is rendered. Sign-in and sign-out update it directly.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  isNoCurrentUser,
  sessionStateFromUser,
  type SessionResponse,
  type SessionState,
  type UserInfo,
} from '@portal/core';
import { getSession } from './get-session';
import { rememberSignedInUser } from './user-storage';

export interface AuthContextValue {
  /** False until the start-up session check has answered. */
  checked: boolean;
  session: SessionState;
  user: UserInfo | null;
  /** Marks the user signed in (after login, MFA, or fresher user info). */
  setUser: (user: UserInfo) => void;
  /** Marks the user signed out (after logout or verification). */
  setSignedOut: () => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** The session check's failure is only logged; 'No current user' is silent (spec 1 section 8). */
export function logSessionCheckFailure(error: unknown): void {
  if (isNoCurrentUser(error)) return;
  console.error('Session check failed:', error);
}

interface AuthProviderProps {
  children: ReactNode;
  /** The start-up session check, when main started it already (in parallel with the brand style). */
  sessionCheck?: Promise<SessionResponse>;
}

export function AuthProvider({ children, sessionCheck }: AuthProviderProps) {
  const [checked, setChecked] = useState(false);
  const [user, setUserState] = useState<UserInfo | null>(null);

  const setUser = useCallback((next: UserInfo) => {
    rememberSignedInUser(next.userId);
    setUserState(next);
  }, []);
  const setSignedOut = useCallback(() => setUserState(null), []);

  useEffect(() => {
    let active = true;
    (sessionCheck ?? getSession())
      .then((answer) => {
        if (active && answer.isAuthenticated && answer.user) setUser(answer.user);
      })
      .catch(logSessionCheckFailure)
      .finally(() => {
        if (active) setChecked(true);
      });
    return () => {
      active = false;
    };
  }, [sessionCheck, setUser]);

  const value = useMemo<AuthContextValue>(
    () => ({ checked, session: sessionStateFromUser(user), user, setUser, setSignedOut }),
    [checked, user, setUser, setSignedOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
