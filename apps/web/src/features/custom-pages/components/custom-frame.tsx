/**
 * The frame of a custom page (spec 1 section 1: no navigation bar or footer): one slim bar with
 * the device's name, its contact status and the age of its newest record, the time, and a quiet
 * way back to the device page; then the page. Also the page's loading, not-found and error states.
 */
import { type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDistanceStrict } from 'date-fns';
import {
  CONTACT_STATUS_DISPLAY,
  DEVICE_MESSAGES,
  formatDateTimeWithOffset,
  formatTimeOfDay,
  notAfterNow,
} from '@portal/core';
import { NotFoundScreen } from '@/components/ui/not-found-screen';
import type { LiveDevice } from './live-device';
import './custom-pages.css';
import { usePageTitle } from '@/lib/page-title';

/** The page's names in titles and headings. */
export const CUSTOM_PAGE_TITLES = { vibracorder: 'Vibracorder', securified: 'Kiosk' } as const;
export type CustomPageTitle = (typeof CUSTOM_PAGE_TITLES)[keyof typeof CUSTOM_PAGE_TITLES];

export function CustomFrame({
  device,
  page,
  children,
}: {
  device: LiveDevice;
  page: CustomPageTitle;
  children: ReactNode;
}) {
  usePageTitle(page, device.name);
  const display = device.status === null ? null : CONTACT_STATUS_DISPLAY[device.status];
  const clock = new Date(device.nowMs);
  return (
    <div className={`cp cp--${page.toLowerCase()}`}>
      <header className="cp-bar">
        <div className="cp-bar__device">
          <h1 className="cp-name">{device.name}</h1>
          <p className="cp-sub">
            <span className="cp-id">{device.deviceid}</span>
            {device.model && <span> · {device.model}</span>}
            <span> · {page}</span>
          </p>
        </div>
        <div className="cp-bar__status">
          {display && (
            <span className={`cp-status cp-status--${display.colour}`} role="status">
              <span className="cp-dot" aria-hidden="true" />
              {display.label}
            </span>
          )}
          <span className="cp-age">
            {device.lastTs === null ? (
              'No data yet'
            ) : (
              <>
                Last data{' '}
                <time
                  dateTime={new Date(device.lastTs * 1000).toISOString()}
                  title={formatDateTimeWithOffset(device.lastTs * 1000)}
                >
                  {formatDistanceStrict(notAfterNow(device.lastTs * 1000, device.nowMs), device.nowMs, {
                    addSuffix: true,
                  })}
                </time>
              </>
            )}
          </span>
          {device.refreshFailed && (
            <span className="cp-offline" role="alert">
              <i className="pi pi-exclamation-triangle" aria-hidden="true" /> Not refreshed: retrying
            </span>
          )}
        </div>
        <div className="cp-bar__end">
          {/* the name in text: a time element may not carry an aria-label */}
          <span className="cp-clock">
            <span className="visually-hidden">Time now </span>
            <time dateTime={clock.toISOString()}>{formatTimeOfDay(clock)}</time>
          </span>
          <Link
            className="p-button p-button-text p-button-sm cp-exit"
            to={`/data/${encodeURIComponent(device.deviceid)}`}
          >
            <i className="pi pi-arrow-left" aria-hidden="true" /> Device page
          </Link>
        </div>
      </header>
      <div className="cp-body">{children}</div>
    </div>
  );
}

/** The page's shape while the device's first answers come. */
export function CustomSkeleton({ label }: { label: string }) {
  return (
    <div className="cp" aria-busy="true" role="status" aria-label={label}>
      <div className="cp-bar">
        <div className="skeleton skeleton--title" />
      </div>
      <div className="cp-body cp-grid">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="cp-tile skeleton cp-tile--skeleton" />
        ))}
      </div>
    </div>
  );
}

/** A device that does not exist or is not the user's (the same answer for both). */
export function CustomDeviceNotFound({ deviceid }: { deviceid: string }) {
  usePageTitle(DEVICE_MESSAGES.notFound);
  return (
    <NotFoundScreen title={DEVICE_MESSAGES.notFound}>
      <p>
        There is no device <span className="cp-id">{deviceid}</span> in your account.
      </p>
    </NotFoundScreen>
  );
}

/** The device's first answers failed. */
export function CustomLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="cp cp-error" role="alert">
      <i className="pi pi-exclamation-triangle" aria-hidden="true" />
      <p>{message}</p>
      <button type="button" className="p-button p-button-outlined" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
