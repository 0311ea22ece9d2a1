/**
 * Home's header (spec 1 section 2 'Home'; UI.md): the page heading (the group's name with its
 * favourite star, or 'Welcome' for a user without groups) and beside it the group's line (its
 * device count, the plan link, the way down to devices not in a group), then the search box and
 * the Add Device / Add Group / Subscriptions buttons. The navigation bar keeps its own Plans
 * (docs/decisions.md, UI notes).
 */
import { Suspense, lazy, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { brand } from '@/lib/brand';
import './home.css';

// The dialog's code loads when it is first opened.
const CreateGroupDialog = lazy(() => import('./create-group-dialog').then((m) => ({ default: m.CreateGroupDialog })));

export interface HomeHeaderProps {
  /** The group shown, or null (no groups). */
  groupid: string | null;
  /** The page heading's text: the group's name, or 'Welcome'; none while a failed load is shown. */
  heading: string | null;
  /** Beside the heading: the group's favourite star. */
  star?: ReactNode;
  /** After the heading and its star: the group's line (device count, plan link). */
  meta?: ReactNode;
  /** The search box. */
  search: ReactNode;
  /** The favourites and recent button. */
  favourites: ReactNode;
}

/** Add Device's target (HOME-07): into the shown group, else the plain add page. */
export function addDevicePath(groupid: string | null): string {
  return groupid ? `/${encodeURIComponent(groupid)}/add` : '/add';
}

export function HomeHeader({ groupid, heading, star, meta, search, favourites }: HomeHeaderProps) {
  const [opened, setOpened] = useState(false);
  const [visible, setVisible] = useState(false);
  return (
    <header className={`home-header${heading === null ? ' home-header--bare' : ''}`}>
      {heading !== null && (
        <div className="home-header__title">
          <div className="home-header__name">
            <h1 className="page-title home-header__heading">{heading}</h1>
            {star}
          </div>
          {meta}
        </div>
      )}
      <div className="home-header__tools">
        {search}
        <div className="home-header__actions">
          {favourites}
          <Link to={addDevicePath(groupid)} className="p-button p-button-outlined home-header__action">
            <i className="pi pi-plus" aria-hidden="true" />
            <span>Add Device</span>
          </Link>
          <Button
            type="button"
            outlined
            icon="pi pi-folder-plus"
            label="Add Group"
            className="home-header__action"
            aria-haspopup="dialog"
            aria-expanded={visible}
            onClick={() => {
              setOpened(true);
              setVisible(true);
            }}
          />
          {!brand.hidePlans && (
            <Link to="/subscriptions" className="p-button p-button-outlined home-header__action">
              <i className="pi pi-credit-card" aria-hidden="true" />
              <span>Subscriptions</span>
            </Link>
          )}
        </div>
      </div>
      {opened && (
        <Suspense fallback={null}>
          <CreateGroupDialog visible={visible} onHide={() => setVisible(false)} />
        </Suspense>
      )}
    </header>
  );
}

/**
 * The group's line beside its name: how many devices it holds, the group view's plan link (VIEW-27:
 * /plans, worded for what it opens so it does not read as a second navigation item) and, when some
 * of the user's devices are in no group, the way down to them.
 */
export function GroupLine({ deviceCount, children }: { deviceCount: number | null; children?: ReactNode }) {
  return (
    <p className="home-header__meta">
      {deviceCount !== null && (
        <span className="home-header__meta-item">
          {deviceCount} {deviceCount === 1 ? 'device' : 'devices'}
        </span>
      )}
      {!brand.hidePlans && (
        <Link to="/plans" className="home-header__meta-item home-header__plans">
          Compare plans
        </Link>
      )}
      {children}
    </p>
  );
}
