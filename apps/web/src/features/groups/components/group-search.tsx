/**
 * Home's search box (spec 1 section 2, HOME-05): devices and groups as you type, asked of the
 * server (GET /api/search) after a short pause, so it works for any fleet size. The arrow button
 * lists the user's own groups. Keyboard: Up/Down, Enter, Escape
 * (PrimeReact's AutoComplete: a combobox with a listbox). A failed search stays quiet.
 */
import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AutoComplete, type AutoCompleteCompleteEvent } from 'primereact/autocomplete';
import { searchQueryOptions } from '../api/get-search';
import type { GroupSummary } from '../api/get-groups';

/** One suggestion: a device or a group. */
export interface SearchHit {
  kind: 'device' | 'group';
  id: string;
  name: string;
}

export interface GroupSearchProps {
  /** The user's groups, listed by the arrow button. */
  groups: readonly GroupSummary[];
  /** A suggestion was chosen. */
  onChoose: (hit: SearchHit) => void;
}

/** Pause after the last key before asking the server. */
const SEARCH_DELAY_MS = 250;

function groupHits(groups: readonly { groupid: string; groupName: string }[]): SearchHit[] {
  return groups.map((g) => ({ kind: 'group', id: g.groupid, name: g.groupName }));
}

export function GroupSearch({ groups, onChoose }: GroupSearchProps) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [suggestions, setSuggestions] = useState<SearchHit[]>([]);
  const [failed, setFailed] = useState(false);
  const latest = useRef('');

  const complete = (event: AutoCompleteCompleteEvent) => {
    const q = event.query.trim();
    latest.current = q;
    if (q === '') {
      setFailed(false);
      setSuggestions(groupHits(groups));
      return;
    }
    queryClient.fetchQuery(searchQueryOptions(q)).then(
      (answer) => {
        if (latest.current !== q) return; // an older answer arriving late
        // One flat list, devices first, each option naming its kind: PrimeReact's grouped list puts
        // its group headers into the listbox as bare list items, which screen readers trip over.
        const devices: SearchHit[] = answer.devices.map((d) => ({
          kind: 'device',
          id: d.deviceid,
          name: d.name || d.deviceid,
        }));
        setFailed(false);
        setSuggestions([...devices, ...groupHits(answer.groups)]);
      },
      () => {
        if (latest.current !== q) return;
        setFailed(true);
        setSuggestions([]);
      },
    );
  };

  return (
    <div className="home-search">
      <label htmlFor="home-search-input" className="visually-hidden">
        Search devices and groups
      </label>
      <i className="pi pi-search home-search__icon" aria-hidden="true" />
      <AutoComplete<SearchHit>
        inputId="home-search-input"
        className="home-search__box"
        inputClassName="home-search__input"
        panelClassName="home-search__panel"
        value={text}
        suggestions={suggestions}
        completeMethod={complete}
        field="name"
        itemTemplate={(hit: SearchHit) => (
          <span className="home-search__item">
            <i className={hit.kind === 'group' ? 'pi pi-th-large' : 'pi pi-microchip'} aria-hidden="true" />
            <span className="home-search__name">{hit.name}</span>
            <span className="home-search__meta">
              <span className="home-search__kind">{hit.kind === 'group' ? 'Group' : 'Device'}</span>{' '}
              <span className="home-search__id">{hit.id}</span>
            </span>
          </span>
        )}
        delay={SEARCH_DELAY_MS}
        minLength={1}
        dropdown
        dropdownMode="blank"
        dropdownAriaLabel="Show your groups"
        showEmptyMessage={!failed}
        emptyMessage="No devices or groups match"
        placeholder="Search devices and groups"
        maxLength={64}
        scrollHeight="320px"
        onChange={(e) => setText(typeof e.value === 'string' ? e.value : '')}
        onSelect={(e) => {
          const hit = e.value;
          setText('');
          setSuggestions([]);
          onChoose(hit);
        }}
      />
    </div>
  );
}
