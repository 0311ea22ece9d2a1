/**
 * /custom/securified without a device: the user's devices (their groups' devices, then favourite
 * and recent ones) to choose the one the kiosk shows.
 */
import { Link } from 'react-router';
import { usePageTitle } from '@/lib/page-title';

export interface KioskChoice {
  deviceid: string;
  name: string;
  /** Where it comes from: a group's name, 'Favourite' or 'Recent'. */
  source: string;
}

export function KioskPicker({
  devices,
  loading,
}: {
  /** Each device once. */
  devices: readonly KioskChoice[];
  loading: boolean;
}) {
  usePageTitle('Kiosk');
  return (
    <div className="cp cp-picker">
      <header className="cp-picker__head">
        <h1 className="cp-name">Kiosk</h1>
        <p className="muted">
          Choose the device this screen shows: its readings in large type, refreshed as they arrive, without the
          portal&apos;s menus.
        </p>
      </header>
      {loading ? (
        <div className="cp-picker__list" aria-busy="true" role="status" aria-label="Loading your devices">
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="skeleton cp-picker__skeleton" />
          ))}
        </div>
      ) : devices.length === 0 ? (
        <section className="cp-empty">
          <i className="pi pi-desktop" aria-hidden="true" />
          <h2>No devices yet</h2>
          <p className="muted">Add a device to your account, or ask a group admin to share a group with you.</p>
          <Link className="p-button" to="/add">
            Add Device
          </Link>
        </section>
      ) : (
        <ul className="cp-picker__list">
          {devices.map((d) => (
            <li key={d.deviceid}>
              <Link className="cp-picker__item" to={`/custom/securified/${encodeURIComponent(d.deviceid)}`}>
                <span className="cp-picker__name">{d.name}</span>
                <span className="cp-picker__meta">
                  <span className="cp-id">{d.deviceid}</span> · {d.source}
                </span>
                <i className="pi pi-angle-right cp-picker__arrow" aria-hidden="true" />
              </Link>
            </li>
          ))}
        </ul>
      )}
      <p className="cp-picker__back">
        <Link to="/">Back to the portal</Link>
      </p>
    </div>
  );
}
