/**
 * /sqadmin (spec 1 sections 1 and 2, STAFF-01): find any device (id prefix or name) or user (part
 * of the address). The text stays in the address (?q=) so Back returns to the results. Keyboard:
 * the box has focus on arrival; Arrow Down goes to the first result, the arrows move between
 * results, Escape goes back to the box (and clears it from there). A device opens its page
 * /sqadmin/{deviceid}; a user opens their dossier (devices and groups, and their brand image:
 * the customer's sub-brand logo, BRD-13) in a dialog.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { STAFF_LIMITS, STAFF_MESSAGES, formatDate, loadErrorDetail, type StaffSearchResponse } from '@portal/core';
import { useStaffSearch } from '../api/staff-search';
import { useStaffUser } from '../api/staff-device';
import { LastContact, PlanTag, StaffHeader, StaffLoadError } from './staff-bits';
import { StaffBrandImage } from './staff-brand-image';
import './staff.css';
import { usePageTitle } from '@/lib/page-title';

const DEBOUNCE_MS = 250;

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Moves focus among the results with the arrow keys; Escape returns to the search box. */
function onResultsKey(event: KeyboardEvent<HTMLElement>, input: HTMLInputElement | null) {
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>('[data-result]')];
  const at = items.indexOf(document.activeElement as HTMLElement);
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    const next = event.key === 'ArrowDown' ? Math.min(items.length - 1, at + 1) : at - 1;
    if (next < 0) input?.focus();
    else items[next]?.focus();
  } else if (event.key === 'Escape') {
    input?.focus();
  }
}

export function StaffSearchPage() {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const q = useDebounced(text.trim(), DEBOUNCE_MS);
  const search = useStaffSearch(q);
  const inputRef = useRef<HTMLInputElement>(null);
  const resultsRef = useRef<HTMLDivElement>(null);
  const [userId, setUserId] = useState<string | null>(null);

  usePageTitle('Staff Admin');
  // the text in the address, replacing the entry (Back leaves the page, not each keystroke)
  useEffect(() => {
    if ((params.get('q') ?? '') !== q) setParams(q ? { q } : {}, { replace: true });
  }, [q, params, setParams]);

  const tooShort = text.trim().length > 0 && text.trim().length < STAFF_LIMITS.searchMin;
  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      const first = resultsRef.current?.querySelector<HTMLElement>('[data-result]');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    } else if (event.key === 'Escape' && text) {
      event.preventDefault();
      setText('');
    }
  };

  return (
    <div className="page staff">
      <StaffHeader
        title="Staff administration"
        subtitle="Find any device by id or name, or any user by e-mail address."
      />
      <div className="card staff-search">
        <label htmlFor="staff-search" className="staff-search__label">
          Device or user
        </label>
        <span className="p-input-icon-left staff-search__box">
          <i className={search.isFetching ? 'pi pi-spin pi-spinner' : 'pi pi-search'} aria-hidden="true" />
          <InputText
            id="staff-search"
            ref={inputRef}
            type="search"
            value={text}
            autoFocus
            autoComplete="off"
            spellCheck={false}
            maxLength={STAFF_LIMITS.searchMax}
            placeholder="e.g. ORB00012, Pump 3, jane@example.com"
            aria-describedby="staff-search-hint"
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onInputKey}
          />
        </span>
        <p id="staff-search-hint" className="staff-hint">
          {tooShort
            ? STAFF_MESSAGES.searchTooShort
            : 'Arrow Down moves to the results; Enter opens one; Escape returns here.'}
        </p>
      </div>
      <div ref={resultsRef} onKeyDown={(event) => onResultsKey(event, inputRef.current)} aria-live="polite">
        {q.length >= STAFF_LIMITS.searchMin &&
          (search.isError ? (
            <StaffLoadError message={loadErrorDetail(search.error)} onRetry={() => void search.refetch()} />
          ) : search.data ? (
            <SearchResults results={search.data} onUser={setUserId} />
          ) : (
            <p className="staff-muted staff-searching">Searching…</p>
          ))}
      </div>
      <UserDialog userId={userId} onHide={() => setUserId(null)} />
    </div>
  );
}

function SearchResults({ results, onUser }: { results: StaffSearchResponse; onUser: (id: string) => void }) {
  const nowMs = Date.now();
  if (results.devices.length === 0 && results.users.length === 0) {
    return (
      <div className="card empty-state">
        <p>No devices or users match.</p>
      </div>
    );
  }
  return (
    <div className="staff-results">
      <section className="card staff-results__section" aria-labelledby="staff-devices-title">
        <h2 id="staff-devices-title" className="card__title">
          Devices <span className="badge">{results.devices.length}</span>
        </h2>
        {results.devices.length === 0 ? (
          <p className="staff-muted">No devices match.</p>
        ) : (
          <ul className="staff-list">
            {results.devices.map((d) => (
              <li key={d.deviceid}>
                <Link data-result className="staff-list__item" to={`/sqadmin/${encodeURIComponent(d.deviceid)}`}>
                  <span className="staff-list__main">
                    <span className="staff-id">{d.deviceid}</span>
                    <span className="staff-list__name">{d.name}</span>
                  </span>
                  <span className="staff-list__meta">
                    <span>{d.model}</span>
                    <PlanTag plan={d.plan} />
                    {d.distributor && <span title="Distributor">{d.distributor}</span>}
                    <LastContact ts={d.lastContact} nowMs={nowMs} />
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card staff-results__section" aria-labelledby="staff-users-title">
        <h2 id="staff-users-title" className="card__title">
          Users <span className="badge">{results.users.length}</span>
        </h2>
        {results.users.length === 0 ? (
          <p className="staff-muted">No users match.</p>
        ) : (
          <ul className="staff-list">
            {results.users.map((u) => (
              <li key={u.userId}>
                <button
                  type="button"
                  data-result
                  className="staff-list__item"
                  aria-haspopup="dialog"
                  onClick={() => onUser(u.userId)}
                >
                  <span className="staff-list__main">
                    <span className="staff-list__name">{u.email}</span>
                  </span>
                  <span className="staff-list__meta">
                    <span>
                      {u.deviceCount} device{u.deviceCount === 1 ? '' : 's'}
                    </span>
                    {u.userGroups.map((g) => (
                      <span key={g} className="staff-chip">
                        {g}
                      </span>
                    ))}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function UserDialog({ userId, onHide }: { userId: string | null; onHide: () => void }) {
  const user = useStaffUser(userId);
  const nowMs = Date.now();
  const data = user.data;
  return (
    <Dialog
      visible={userId !== null}
      onHide={onHide}
      header={data?.user.email ?? 'User'}
      className="view-dialog staff-dialog"
      style={{ width: '40rem' }}
      breakpoints={{ '575px': '100vw' }}
      draggable={false}
      resizable={false}
    >
      {user.isPending ? (
        <div className="skeleton-stack" aria-busy="true">
          <div className="skeleton skeleton--row" />
          <div className="skeleton skeleton--row" />
        </div>
      ) : user.isError ? (
        <StaffLoadError message={loadErrorDetail(user.error)} onRetry={() => void user.refetch()} />
      ) : data ? (
        <div className="staff-user">
          <dl className="staff-facts">
            <dt>E-mail verified</dt>
            <dd>{data.user.emailVerified ? 'Yes' : 'No'}</dd>
            <dt>Two-factor</dt>
            <dd>{data.user.mfaType === 'NONE' ? 'Off' : data.user.mfaType}</dd>
            <dt>Staff groups</dt>
            <dd>{data.user.userGroups.length ? data.user.userGroups.join(', ') : 'None'}</dd>
            <dt>Signed up</dt>
            <dd>{formatDate(data.user.createdAt * 1000)}</dd>
          </dl>
          <StaffBrandImage userid={data.user.userId} email={data.user.email} url={data.user.brandImageUrl} />
          <h3 className="staff-subtitle">Devices</h3>
          {data.devices.length === 0 ? (
            <p className="staff-muted">No devices.</p>
          ) : (
            <ul className="staff-list">
              {data.devices.map((d) => (
                <li key={d.deviceid}>
                  <Link className="staff-list__item" to={`/sqadmin/${encodeURIComponent(d.deviceid)}`}>
                    <span className="staff-list__main">
                      <span className="staff-id">{d.deviceid}</span>
                      <span className="staff-list__name">{d.name}</span>
                    </span>
                    <span className="staff-list__meta">
                      <span>{d.role}</span>
                      <PlanTag plan={d.plan} />
                      <LastContact ts={d.lastContact} nowMs={nowMs} />
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <h3 className="staff-subtitle">Groups</h3>
          {data.groups.length === 0 ? (
            <p className="staff-muted">No groups.</p>
          ) : (
            <ul className="staff-plain-list">
              {data.groups.map((g) => (
                <li key={g.groupid}>
                  <strong>{g.groupName}</strong> <span className="staff-id">{g.groupid}</span> · {g.permission} ·{' '}
                  {g.devices} device{g.devices === 1 ? '' : 's'}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </Dialog>
  );
}
