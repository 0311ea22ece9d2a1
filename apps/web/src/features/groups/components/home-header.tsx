/**
 * Home's header (spec 1 section 2 'Home'; UI.md): the group's name as the page heading with its
 * favourite star, then the search box, the Add Device / Add Group / Subscriptions buttons and the plan link (/plans).
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
  /** The page heading's text (the group's name); none without a group (the welcome panel has it). */
  heading: string | null;
  /** Beside the heading: the group's favourite star. */
  star?: ReactNode;
  /** The search box. */
  search: ReactNode;
  /** The favourites and recent button. */
  favourites: ReactNode;
}

/** Add Device's target (HOME-07): into the shown group, else the plain add page. */
export function addDevicePath(groupid: string | null): string {
  return groupid ? `/${encodeURIComponent(groupid)}/add` : '/add';
}

export function HomeHeader({ groupid, heading, star, search, favourites }: HomeHeaderProps) {
  const [opened, setOpened] = useState(false);
  const [visible, setVisible] = useState(false);
  return (
    <header className={`home-header${heading === null ? ' home-header--bare' : ''}`}>
      {heading !== null && (
        <div className="home-header__title">
          <h1 className="page-title home-header__heading">{heading}</h1>
          {star}
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
          {!brand.hidePlans && (
            <Link to="/plans" className="p-button p-button-text home-header__action">
              <i className="pi pi-tag" aria-hidden="true" />
              <span>Plans</span>
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
