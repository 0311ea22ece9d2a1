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

interface SuggestionGroup {
  label: string;
  items: SearchHit[];
}

/** What the list holds: group headers with their items (PrimeReact's optionGroupChildren). */
type Suggestion = SuggestionGroup | SearchHit;

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
  const [suggestions, setSuggestions] = useState<SuggestionGroup[]>([]);
  const [failed, setFailed] = useState(false);
  const latest = useRef('');

  const complete = (event: AutoCompleteCompleteEvent) => {
    const q = event.query.trim();
    latest.current = q;
    if (q === '') {
      setFailed(false);
      setSuggestions(groups.length > 0 ? [{ label: 'Your groups', items: groupHits(groups) }] : []);
      return;
    }
    queryClient.fetchQuery(searchQueryOptions(q)).then(
      (answer) => {
        if (latest.current !== q) return; // an older answer arriving late
        const found: SuggestionGroup[] = [];
        if (answer.devices.length > 0) {
          found.push({
            label: 'Devices',
            items: answer.devices.map((d) => ({ kind: 'device', id: d.deviceid, name: d.name || d.deviceid })),
          });
        }
        if (answer.groups.length > 0) found.push({ label: 'Groups', items: groupHits(answer.groups) });
        setFailed(false);
        setSuggestions(found);
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
      <AutoComplete<Suggestion>
        inputId="home-search-input"
        className="home-search__box"
        inputClassName="home-search__input"
        panelClassName="home-search__panel"
        value={text}
        suggestions={suggestions}
        completeMethod={complete}
        field="name"
        optionGroupLabel="label"
        optionGroupChildren="items"
        optionGroupTemplate={(group: Suggestion) =>
          'label' in group ? <span className="home-search__group">{group.label}</span> : null
        }
        itemTemplate={(hit: Suggestion) =>
          'kind' in hit ? (
            <span className="home-search__item">
              <i className={hit.kind === 'group' ? 'pi pi-th-large' : 'pi pi-microchip'} aria-hidden="true" />
              <span className="home-search__name">{hit.name}</span>
              <span className="home-search__id">{hit.id}</span>
            </span>
          ) : null
        }
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
          if (!('kind' in hit)) return;
          setText('');
          setSuggestions([]);
          onChoose(hit);
        }}
      />
    </div>
  );
}
