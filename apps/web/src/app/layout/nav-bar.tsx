import { Suspense, lazy, useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { DEFAULT_DOCS_URL, supportLink } from '@portal/core';
import { BrandLogo } from '@/components/ui/brand-logo';
import { useAuth } from '@/lib/auth/auth-context';
import { brand } from '@/lib/brand';
import { useSignOut } from '@/features/auth/hooks/use-sign-out';

/** The Staff menu, fetched only for a user in a staff group (most users never download it). */
const StaffMenu = lazy(() => import('./staff-menu'));

interface NavItem {
  key: string;
  label: string;
  icon: string;
  to: string;
  external?: boolean;
}

/** Items of the bar: Plans, Support, Docs, Account (signed in) or Signup, Login; each hideable per brand. */
function navItems(signedIn: boolean, pathname: string): NavItem[] {
  if (!signedIn) {
    return [
      { key: 'signup', label: 'Signup', icon: 'pi pi-user-plus', to: '/signup' },
      { key: 'login', label: 'Login', icon: 'pi pi-sign-in', to: '/login' },
    ];
  }
  const items: NavItem[] = [];
  if (!brand.hidePlans) items.push({ key: 'plans', label: 'Plans', icon: 'pi pi-credit-card', to: '/plans' });
  if (!brand.hideSupport)
    items.push({ key: 'support', label: 'Support', icon: 'pi pi-question-circle', to: supportLink(pathname) });
  if (!brand.hideDocs) {
    items.push({
      key: 'docs',
      label: 'Docs',
      icon: 'pi pi-book',
      to: brand.docsLink || DEFAULT_DOCS_URL,
      external: true,
    });
  }
  if (!brand.hideAccount) items.push({ key: 'account', label: 'Account', icon: 'pi pi-user', to: '/account' });
  return items;
}

export function NavBar() {
  const { session } = useAuth();
  const { pathname } = useLocation();
  const signOut = useSignOut();
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const menuId = useId();
  const newTabNoteId = useId();
  const barRef = useRef<HTMLElement>(null);

  // the folded menu closes on navigation, Escape and a click elsewhere
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    const onClick = (event: MouseEvent) => {
      if (barRef.current && !barRef.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  const signedIn = session.isAuthenticated;
  const items = navItems(signedIn, pathname);
  const subBrand = brand.allowSubBrand && signedIn ? session.brandImageUrl : null;

  const onLogout = async () => {
    setSigningOut(true);
    try {
      await signOut();
    } finally {
      setSigningOut(false);
    }
  };

  return (
    <header className="nav-bar" ref={barRef}>
      <div className="nav-bar__inner">
        <Link to="/" className="nav-bar__brand" aria-label={`${brand.name} home`}>
          <BrandLogo />
          {subBrand && (
            <img
              className="nav-bar__sub-brand"
              src={subBrand}
              alt="Customer logo"
              style={{ height: brand.mainBrandHeight }}
            />
          )}
        </Link>
        <button
          type="button"
          className="nav-bar__menu-button"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((value) => !value)}
        >
          <i className={open ? 'pi pi-times' : 'pi pi-bars'} aria-hidden="true" />
        </button>
        <nav id={menuId} className={`nav-bar__menu${open ? ' nav-bar__menu--open' : ''}`} aria-label="Main">
          <ul className="nav-bar__items">
            {items.map((item) => (
              <li key={item.key}>
                {item.external ? (
                  <a
                    className="nav-bar__item"
                    href={item.to}
                    target="_blank"
                    rel="noopener"
                    aria-describedby={newTabNoteId}
                  >
                    <i className={item.icon} aria-hidden="true" />
                    <span>{item.label}</span>
                  </a>
                ) : (
                  <NavLink
                    className={({ isActive }) => `nav-bar__item${isActive ? ' nav-bar__item--active' : ''}`}
                    to={item.to}
                    end={item.key !== 'account'}
                  >
                    <i className={item.icon} aria-hidden="true" />
                    <span>{item.label}</span>
                  </NavLink>
                )}
              </li>
            ))}
            {signedIn && session.userGroups.length > 0 && (
              <Suspense fallback={null}>
                <StaffMenu userGroups={session.userGroups} />
              </Suspense>
            )}
            {signedIn && (
              <li>
                <button
                  type="button"
                  className="nav-bar__item nav-bar__logout"
                  onClick={() => void onLogout()}
                  disabled={signingOut}
                >
                  <i className={signingOut ? 'pi pi-spin pi-spinner' : 'pi pi-sign-out'} aria-hidden="true" />
                  <span>Logout</span>
                </button>
              </li>
            )}
          </ul>
        </nav>
        <span id={newTabNoteId} className="visually-hidden">
          Opens in a new tab
        </span>
      </div>
    </header>
  );
}
