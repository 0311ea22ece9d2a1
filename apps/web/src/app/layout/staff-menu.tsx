/**
 * The navigation bar's 'Staff' menu (DESIGN.md section 5): the staff pages the signed-in user may
 * open (core canOpenStaffPage), hidden for everyone else. A page joins the menu with one line in
 * STAFF_MENU. A disclosure: the button opens the list below it; Escape, a click elsewhere and
 * navigation close it. In the folded phone menu the list shows in place.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { canOpenStaffPage, type StaffPage } from '@portal/core';
import './staff-menu.css';

export interface StaffMenuItem {
  page: StaffPage;
  label: string;
  to: string;
  icon: string;
}

/** Every staff page in the menu, in its order. */
export const STAFF_MENU: readonly StaffMenuItem[] = [
  { page: 'sqadmin', label: 'Admin', to: '/sqadmin', icon: 'pi pi-search' },
  { page: 'sqtools', label: 'Tools', to: '/sqtools', icon: 'pi pi-wrench' },
  { page: 'sqstats', label: 'Statistics', to: '/sqstats', icon: 'pi pi-chart-bar' },
  { page: 'sqprov', label: 'Provisioning', to: '/sqprov', icon: 'pi pi-box' },
  { page: 'sqpacking', label: 'Packing', to: '/sqpacking', icon: 'pi pi-truck' },
];

/** The menu entries these groups open. */
export function staffMenuFor(userGroups: readonly string[]): StaffMenuItem[] {
  return STAFF_MENU.filter((item) => canOpenStaffPage(userGroups, item.page));
}

/** The menu of the user's groups (loaded on its own: only staff download it). */
export default function StaffMenuFor({ userGroups }: { userGroups: readonly string[] }) {
  return <StaffMenu items={staffMenuFor(userGroups)} />;
}

export function StaffMenu({ items }: { items: readonly StaffMenuItem[] }) {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const listId = useId();
  const rootRef = useRef<HTMLLIElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const active = items.some((item) => pathname === item.to || pathname.startsWith(`${item.to}/`));

  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  if (items.length === 0) return null;
  return (
    <li className="staff-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className={`nav-bar__item staff-menu__button${active ? ' nav-bar__item--active' : ''}`}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((v) => !v)}
      >
        <i className="pi pi-shield" aria-hidden="true" />
        <span>Staff</span>
        <i className={`staff-menu__caret pi ${open ? 'pi-chevron-up' : 'pi-chevron-down'}`} aria-hidden="true" />
      </button>
      <ul id={listId} className={`staff-menu__list${open ? ' staff-menu__list--open' : ''}`}>
        {items.map((item) => (
          <li key={item.page}>
            <NavLink
              to={item.to}
              className={({ isActive }) => `staff-menu__link${isActive ? ' staff-menu__link--active' : ''}`}
            >
              <i className={item.icon} aria-hidden="true" />
              <span>{item.label}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </li>
  );
}
