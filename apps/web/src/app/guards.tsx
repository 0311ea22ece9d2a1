import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { canOpenStaffPage, loginRedirectPath, safeRedirectTarget, type StaffPage } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { NotFound } from './not-found';

/** Signed-in routes: a signed-out visitor goes to /login?redirect={path+query}. */
export function RequireAuth() {
  const { session } = useAuth();
  const { pathname, search } = useLocation();
  if (!session.isAuthenticated) return <Navigate replace to={loginRedirectPath(pathname, search)} />;
  return <Outlet />;
}

/** /login: a signed-in visitor goes to the redirect parameter (same site only), else '/'. */
export function LoginGuard() {
  const { session } = useAuth();
  const [params] = useSearchParams();
  if (session.isAuthenticated) return <Navigate replace to={safeRedirectTarget(params.get('redirect'))} />;
  return <Outlet />;
}

/** /signup and /resetpassword*: a signed-in visitor goes home (DESIGN.md section 5). */
export function SignedOutOnly() {
  const { session } = useAuth();
  if (session.isAuthenticated) return <Navigate replace to="/" />;
  return <Outlet />;
}

/**
 * A staff page (DESIGN.md section 5): a user outside the page's staff group sees the not-found
 * screen, exactly as for a path that does not exist. The server refuses their calls (403) anyway.
 */
export function RequireStaffPage({ page }: { page: StaffPage }) {
  const { session } = useAuth();
  if (!canOpenStaffPage(session.userGroups, page)) return <NotFound />;
  return <Outlet />;
}
