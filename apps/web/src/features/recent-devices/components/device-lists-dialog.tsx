import { Link } from 'react-router';
import { Dialog } from 'primereact/dialog';
import { formatDistanceToNowStrict } from 'date-fns';
import { formatDateTimeWithOffset, navigationTarget } from '@portal/core';
import {
  isFavouriteDevice,
  recordRecentDevice,
  toggleFavouriteDevice,
  useDeviceLists,
  type DeviceLists,
  type ListEntry,
} from '../hooks/use-device-lists';
import { FavouriteStar } from './favourite-device-button';
import './device-lists.css';

export interface DeviceListsDialogProps {
  visible: boolean;
  onHide: () => void;
}

/**
 * The favourites and recent dialog (spec 1 section 2, HOME-06): the devices and groups kept in
 * local storage, each a link through the navigation helper's rules, with star toggles.
 */
export function DeviceListsDialog({ visible, onHide }: DeviceListsDialogProps) {
  const lists = useDeviceLists();
  return (
    <Dialog
      visible={visible}
      onHide={onHide}
      header="Favourites"
      className="device-lists-dialog"
      style={{ width: '34rem' }}
      breakpoints={{ '575px': 'calc(100vw - 16px)' }}
      draggable={false}
      resizable={false}
      dismissableMask
    >
      <EntryList
        title="Favourites"
        entries={lists.favourites}
        lists={lists}
        empty="No favourites yet. Star a device or a group to keep it at hand."
        onNavigate={onHide}
      />
      <EntryList
        title="Recent"
        entries={lists.recent}
        lists={lists}
        empty="Nothing opened yet. The devices and groups you open appear here."
        onNavigate={onHide}
      />
    </Dialog>
  );
}

interface EntryListProps {
  title: string;
  entries: readonly ListEntry[];
  lists: DeviceLists;
  empty: string;
  onNavigate: () => void;
}

function EntryList({ title, entries, lists, empty, onNavigate }: EntryListProps) {
  const headingId = `device-lists-${title.toLowerCase()}`;
  return (
    <section className="device-lists__section" aria-labelledby={headingId}>
      <h3 id={headingId} className="device-lists__heading">
        {title}
        <span className="badge">
          {entries.length}
          <span className="visually-hidden"> entries</span>
        </span>
      </h3>
      {entries.length === 0 ? (
        <p className="device-lists__empty">{empty}</p>
      ) : (
        <ul className="device-lists__items">
          {entries.map((entry) => (
            <EntryRow
              key={entry.id}
              entry={entry}
              favourite={isFavouriteDevice(lists, entry.id)}
              onNavigate={onNavigate}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function EntryRow({ entry, favourite, onNavigate }: { entry: ListEntry; favourite: boolean; onNavigate: () => void }) {
  const target = navigationTarget(entry.id);
  const name = entry.name || entry.id;
  const kind = target.recent === 'group' ? 'Group' : 'Device';
  const onClick = () => {
    if (target.recent !== null) recordRecentDevice(entry.id, name);
    onNavigate();
  };
  return (
    <li className="device-lists__row">
      <Link to={target.path} className="device-lists__link" onClick={onClick}>
        <i className={target.recent === 'group' ? 'pi pi-th-large' : 'pi pi-microchip'} aria-hidden="true" />
        <span className="device-lists__name">{name}</span>
        <span className="device-lists__id">
          <span className="device-lists__kind">{kind}</span>
          {name !== entry.id && <> · {entry.id}</>}
        </span>
        <time className="device-lists__time" dateTime={new Date(entry.ts).toISOString()} title={absolute(entry.ts)}>
          {relative(entry.ts)}
        </time>
      </Link>
      <FavouriteStar favourite={favourite} name={name} onToggle={() => toggleFavouriteDevice(entry.id, name)} />
    </li>
  );
}

function relative(ts: number): string {
  return Number.isFinite(ts) ? formatDistanceToNowStrict(ts, { addSuffix: true }) : '';
}

function absolute(ts: number): string {
  return formatDateTimeWithOffset(ts);
}
