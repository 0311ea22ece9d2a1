import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { loginRedirectPath, safeRedirectTarget } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';

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
