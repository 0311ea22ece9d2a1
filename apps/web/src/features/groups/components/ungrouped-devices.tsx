/**
 * Home's list of the user's devices that none of the user's groups holds (docs/decisions.md
 * 'Devices not in a group'): every device a user can read is one step from home (UI.md), while
 * home still opens a group (HOME-03) and a user without groups still sees the welcome panel
 * (HOME-01). Under the welcome panel, and under the group's dashboard; a page of
 * UNGROUPED_DEVICES_PAGE at a time with the count, so a user with many such devices costs one small
 * call. Each row links to the device's Data page. Nothing is drawn while there are none.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { ERROR_LOADING_DATA, UNGROUPED_DEVICES_PAGE, serverMessage } from '@portal/core';
import { Age } from '@/components/ui/age';
import { useUngroupedDevices } from '../api/get-ungrouped-devices';
import './home.css';

/** The section's id: the header's jump link leads here. */
export const UNGROUPED_SECTION_ID = 'devices-not-in-a-group';
export const UNGROUPED_TITLE = 'Devices not in a group';

/** How often the last-contact ages are brought up to date. */
const AGE_TICK_MS = 30_000;

/** The ages' clock: now, again every AGE_TICK_MS. */
function useTick(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), AGE_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** '1 device' / '3 devices'. */
export function devicesCount(n: number): string {
  return `${n} ${n === 1 ? 'device' : 'devices'}`;
}

export function UngroupedDevices() {
  const [offset, setOffset] = useState(0);
  const query = useUngroupedDevices(offset);
  const now = useTick();
  const page = query.data;
  // A page emptied by a change elsewhere (its devices put into a group): back to the first.
  const emptied = page !== undefined && page.devices.length === 0 && offset > 0 && !query.isFetching;
  useEffect(() => {
    if (emptied) setOffset(0);
  }, [emptied]);

  if (query.isError && !page) {
    return (
      <section className="ungrouped card" aria-labelledby={`${UNGROUPED_SECTION_ID}-title`} id={UNGROUPED_SECTION_ID}>
        <h2 id={`${UNGROUPED_SECTION_ID}-title`} className="ungrouped__title">
          {UNGROUPED_TITLE}
        </h2>
        <p className="ungrouped__error" role="alert">
          <i className="pi pi-exclamation-triangle" aria-hidden="true" />{' '}
          {serverMessage(query.error) ?? ERROR_LOADING_DATA}
          <Button type="button" text size="small" label="Try again" onClick={() => void query.refetch()} />
        </p>
      </section>
    );
  }
  if (!page || page.total === 0 || page.devices.length === 0) return null;

  const first = page.offset + 1;
  const last = page.offset + page.devices.length;
  const paged = page.total > UNGROUPED_DEVICES_PAGE;
  return (
    <section className="ungrouped card" aria-labelledby={`${UNGROUPED_SECTION_ID}-title`} id={UNGROUPED_SECTION_ID}>
      <h2 id={`${UNGROUPED_SECTION_ID}-title`} className="ungrouped__title" tabIndex={-1}>
        {UNGROUPED_TITLE}
        <span className="badge ungrouped__count">
          <span className="visually-hidden">: </span>
          {page.total}
        </span>
      </h2>
      <ul className="ungrouped__list" aria-busy={query.isFetching && query.isPlaceholderData}>
        {page.devices.map((device) => (
          <li key={device.deviceid} className="ungrouped__row">
            <Link className="ungrouped__name" to={`/data/${encodeURIComponent(device.deviceid)}`}>
              {device.name || device.deviceid}
            </Link>
            <span className="ungrouped__id">{device.deviceid}</span>
            <span className="ungrouped__type">{device.type}</span>
            <span className="ungrouped__contact">
              <span className="visually-hidden">Last contact: </span>
              {device.ts === null ? <span className="muted">Never</span> : <Age ts={device.ts} nowMs={now} />}
            </span>
          </li>
        ))}
      </ul>
      {paged && (
        <nav className="ungrouped__pager" aria-label={`${UNGROUPED_TITLE}: pages`}>
          <span className="ungrouped__range" aria-live="polite">
            {first}–{last} of {page.total}
          </span>
          <Button
            type="button"
            text
            icon="pi pi-angle-left"
            aria-label="Previous devices"
            disabled={page.offset === 0}
            onClick={() => setOffset(Math.max(0, page.offset - UNGROUPED_DEVICES_PAGE))}
          />
          <Button
            type="button"
            text
            icon="pi pi-angle-right"
            aria-label="Next devices"
            disabled={last >= page.total}
            onClick={() => setOffset(page.offset + UNGROUPED_DEVICES_PAGE)}
          />
        </nav>
      )}
    </section>
  );
}

/** On a group's home, beside its name: the way down to the list, while the user has devices not in a group. */
export function UngroupedJumpLink({ className }: { className?: string }) {
  const query = useUngroupedDevices(0);
  const total = query.data?.total ?? 0;
  if (total === 0) return null;
  return (
    <a
      className={className}
      href={`#${UNGROUPED_SECTION_ID}`}
      onClick={(event) => {
        const heading = document.getElementById(`${UNGROUPED_SECTION_ID}-title`);
        if (!heading) return;
        event.preventDefault();
        heading.scrollIntoView({ block: 'start' });
        heading.focus({ preventScroll: true });
      }}
    >
      <i className="pi pi-arrow-down" aria-hidden="true" /> {devicesCount(total)} not in a group
    </a>
  );
}
