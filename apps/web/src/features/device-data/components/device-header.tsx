/**
 * The header of every device page (spec 2 section 2, UI.md 'Device page'): breadcrumb, device
 * name with its model and firmware small beneath, status, plan badge and the page buttons with
 * their visibility rules (one button style; folded into a menu on a phone), then the plan banners.
 */
import { useId, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  BASIC_BANNER_TEXT,
  PORTAL_SETTINGS_LOAD_ERROR,
  isDeviceNameEditable,
  planState,
  sanitise,
  trialBannerText,
  upgradeLink,
  type DeviceAccess,
  type DeviceSettingsResponse,
} from '@portal/core';
import { brand } from '@/lib/brand';
import { useMessageDialog } from '@/lib/message-dialog';
import { useUpdateDeviceSettings } from '../api/device-settings';
import '@/components/ui/plan-badge.css';
import './device-page.css';
import { usePageTitle } from '@/lib/page-title';

export type DevicePageName =
  | 'Data'
  | 'Scripting'
  | 'Diagnostics'
  | 'Server Log'
  | 'Settings'
  | 'Raw Data'
  | 'Users and Permissions'
  | 'Chart'
  | 'Widget';

export interface DeviceHeaderProps {
  deviceid: string;
  page: DevicePageName;
  /** The page's own name where it has one (a widget card's name): the breadcrumb and document title show it instead of `page`. */
  pageTitle?: string | undefined;
  /** The device name (PORTAL_deviceName, else the id). */
  name: string;
  settings: DeviceSettingsResponse | undefined;
  access: DeviceAccess;
  /** The config disables endpoint.data_to_portal. */
  dataToPortalDisabled: boolean;
  /** Status line under the name: last contact, No Recent Contact. */
  status?: ReactNode;
  /** Extra buttons of the page (Asset Notes, Regulatory Information...). */
  actions?: ReactNode;
  /** The device's model and firmware (config.settings.device), shown small under its name. */
  model?: string | null;
  firmware?: string | null;
  onDistributorTools?: () => void;
  nowMs: number;
}

const devicePath = (page: string, deviceid: string) => `/${page}/${encodeURIComponent(deviceid)}`;

export function DeviceHeader(props: DeviceHeaderProps) {
  const { deviceid, page, name, settings, access } = props;
  usePageTitle(props.pageTitle ?? page, name);

  const plan = planState({ tier: settings?.deviceSettings.tier ?? null }, props.nowMs);
  // Plans, or Support on a brand that hides Plans (DESIGN.md section 5).
  const upgrade = upgradeLink(brand, deviceid);
  const onData = page === 'Data';
  // The button of the page shown is marked (aria-current and its style); Settings, Raw Data and the
  // permission button are not shown on their own pages at all (HDR-09, HDR-10, HDR-13).
  const current = (name: DevicePageName) => (name === page ? ('page' as const) : undefined);
  // On a phone the buttons fold into a menu (CSS shows the toggle below 641 px); it stays mounted
  // while folded, so a dialog one of its buttons opened stays open.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeMenu = (focusToggle: boolean) => {
    setMenuOpen(false);
    if (focusToggle) toggleRef.current?.focus();
  };
  // A button or link chosen in the menu closes it (its page or dialog opens).
  const onMenuClick = (e: MouseEvent<HTMLDivElement>) => {
    if (menuOpen && (e.target as HTMLElement).closest('a, button')) closeMenu(false);
  };
  const onMenuKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (menuOpen && e.key === 'Escape') closeMenu(true);
  };

  return (
    <header className="dp-header">
      <nav aria-label="Breadcrumb" className="dp-crumbs">
        <ol>
          <li>
            <Link to="/" aria-label="Home" className="dp-crumb-home">
              <i className="pi pi-home" aria-hidden="true" />
            </Link>
          </li>
          <li>{onData ? <span>{name}</span> : <Link to={devicePath('data', deviceid)}>{name}</Link>}</li>
          <li aria-current="page">{props.pageTitle ?? page}</li>
        </ol>
      </nav>
      <div className="dp-header-main">
        <div className="dp-title-block">
          <div className="dp-title-row">
            <DeviceName deviceid={deviceid} name={name} editable={access.editDeviceSettings} />
            <Link
              to={upgrade.to}
              className={`plan-badge plan-badge--${plan.colour}${plan.outline ? ' plan-badge--outline' : ''} dp-tier`}
              title={plan.tooltip}
              aria-label={`Plan: ${plan.label}. ${plan.tooltip}`}
            >
              {plan.label}
            </Link>
          </div>
          <p className="dp-identity">
            <span className="dp-id">{deviceid}</span>
            {props.model && (
              <span>
                <span className="visually-hidden">Model </span>
                {props.model}
              </span>
            )}
            {props.firmware && (
              <span>
                <span className="dp-identity-label">Firmware </span>
                <span className="dp-firmware">{props.firmware}</span>
              </span>
            )}
          </p>
          {props.status && <div className="dp-status">{props.status}</div>}
        </div>
        <div className="dp-header-actions">
          <button
            ref={toggleRef}
            type="button"
            className="p-button p-button-sm dp-menu-toggle"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <i className={`pi ${menuOpen ? 'pi-times' : 'pi-bars'}`} aria-hidden="true" /> Device menu
          </button>
          <div
            id={menuId}
            className={`dp-actions${menuOpen ? ' dp-actions--open' : ''}`}
            role="toolbar"
            aria-label="Device pages"
            onClick={onMenuClick}
            onKeyDown={onMenuKeyDown}
          >
            {props.actions}
            {onData && access.distributorTools && (
              <button type="button" className="p-button p-button-sm p-button-text" onClick={props.onDistributorTools}>
                <i className="pi pi-briefcase" aria-hidden="true" /> Distributor Tools
              </button>
            )}
            <Link
              className="p-button p-button-sm p-button-text"
              to={devicePath('script', deviceid)}
              aria-current={current('Scripting')}
            >
              Scripting
            </Link>
            <Link
              className="p-button p-button-sm p-button-text"
              to={devicePath('diag', deviceid)}
              aria-current={current('Diagnostics')}
            >
              Diagnostics
            </Link>
            <Link
              className="p-button p-button-sm p-button-text"
              to={devicePath('serverlog', deviceid)}
              aria-current={current('Server Log')}
            >
              Server Log
            </Link>
            {!page.startsWith('Settings') && (
              <Link className="p-button p-button-sm p-button-text" to={devicePath('config', deviceid)}>
                Settings
              </Link>
            )}
            {page !== 'Raw Data' && (
              <Link className="p-button p-button-sm p-button-text" to={devicePath('raw', deviceid)}>
                Raw Data
              </Link>
            )}
            {page !== 'Users and Permissions' &&
              (access.viewUsers ? (
                <Link
                  className="p-button p-button-sm dp-permission"
                  to={devicePath('users', deviceid)}
                  title="Users and permissions"
                >
                  <i className="pi pi-user" aria-hidden="true" /> {access.role}
                </Link>
              ) : (
                <span
                  className="p-button p-button-sm dp-permission dp-permission--inert"
                  role="link"
                  aria-disabled="true"
                  title="Your permission on this device"
                >
                  <i className="pi pi-user" aria-hidden="true" /> {access.role}
                </span>
              ))}
          </div>
        </div>
      </div>
      <div className="dp-banners">
        {plan.showBasicBanner && (
          <p className="dp-banner dp-banner--info" role="status">
            <i className="pi pi-info-circle" aria-hidden="true" /> Basic plan: {BASIC_BANNER_TEXT}.{' '}
            <Link to={upgrade.to}>{upgrade.label}</Link>
          </p>
        )}
        {plan.showTrialBanner && plan.trialDaysRemaining !== null && (
          <p className={`dp-banner dp-banner--${plan.colour === 'danger' ? 'danger' : 'warning'}`} role="status">
            <i className="pi pi-clock" aria-hidden="true" /> {trialBannerText(plan.trialDaysRemaining)}{' '}
            <Link to={upgrade.to}>{upgrade.label}</Link>
          </p>
        )}
        {props.dataToPortalDisabled && (
          <p className="dp-banner dp-banner--warning" role="status">
            <i className="pi pi-exclamation-triangle" aria-hidden="true" /> This device is set not to send data to the
            portal (endpoint.data_to_portal is off in its settings).
          </p>
        )}
        {access.error && (
          <p className="dp-banner dp-banner--danger" role="alert">
            <i className="pi pi-exclamation-circle" aria-hidden="true" /> {PORTAL_SETTINGS_LOAD_ERROR} Showing what a
            viewer may see.
          </p>
        )}
      </div>
    </header>
  );
}

/** The device name; editable (pencil) only for ids starting '0-' and users who may edit settings. */
function DeviceName({ deviceid, name, editable }: { deviceid: string; name: string; editable: boolean }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name);
  const update = useUpdateDeviceSettings(deviceid);
  const messages = useMessageDialog();
  const canEdit = editable && isDeviceNameEditable(deviceid);
  if (!editing) {
    return (
      <h1 className="dp-name">
        {name}
        {canEdit && (
          <button
            type="button"
            className="p-button p-button-text p-button-sm p-button-icon-only dp-name-edit"
            aria-label="Edit device name"
            onClick={() => {
              setDraft(name);
              setEditing(true);
            }}
          >
            <i className="pi pi-pencil" aria-hidden="true" />
          </button>
        )}
      </h1>
    );
  }
  const save = () => {
    const clean = sanitise(draft);
    update.mutate(
      { PORTAL_deviceName: clean },
      {
        onSuccess: (saved) => {
          setEditing(false);
          messages.showSuccess(saved);
        },
        onError: (error) => messages.showError(error),
      },
    );
  };
  return (
    <form
      className="dp-name-form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label className="visually-hidden" htmlFor="device-name">
        Device name
      </label>
      <input
        id="device-name"
        className="p-inputtext p-component"
        value={draft}
        maxLength={40}
        autoFocus
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
      />
      <button type="submit" className="p-button p-button-sm" disabled={update.isPending}>
        Save
      </button>
      <button type="button" className="p-button p-button-sm p-button-text" onClick={() => setEditing(false)}>
        Cancel
      </button>
    </form>
  );
}

/** The header's place while a device page's first answers come: its crumbs, name and status lines. */
export function DeviceHeaderSkeleton() {
  return (
    <div className="dp-header-skeleton">
      <div className="skeleton skeleton--label" />
      <div className="skeleton skeleton--title" />
      <div className="skeleton skeleton--label" />
    </div>
  );
}
