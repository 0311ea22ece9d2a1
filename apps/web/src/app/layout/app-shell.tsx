import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '../error-boundary';
import { PageLoader } from '../page-loader';
import { Footer } from './footer';
import { NavBar } from './nav-bar';

/** Navigation bar, the route, the footer. */
export function AppShell() {
  const { pathname } = useLocation();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar />
      <main id="main" className="app-main" tabIndex={-1}>
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
    </div>
  );
}

/** Custom device pages (/custom/...): no navigation bar, no footer. */
export function BareShell() {
  const { pathname } = useLocation();
  return (
    <main id="main" className="app-main app-main--bare">
      <ErrorBoundary resetKey={pathname}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </ErrorBoundary>
    </main>
  );
}
