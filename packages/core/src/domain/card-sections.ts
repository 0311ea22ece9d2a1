/**
 * The sections of the device page (UI.md 'Device page', DESIGN.md section 5): cards that share a
 * display-settings groupKey sit together under that name; a card without one sits under its
 * measurement catalogue section (Power, Engine, Inputs, Hours, GPS ...); keys the catalogue does
 * not know go under 'Other', last.
 */
import { orderedKeys, sectionNameOf } from './display-resolve';
import { OTHER_SECTION, measurementSection } from './measurements';

/** Where a section's name comes from: a user's groupKey, the catalogue, or neither ('Other'). */
export type CardSectionSource = 'group' | 'catalogue' | 'other';

/** One section of cards: its heading and its keys in display order. */
export interface CardSection {
  /** The heading: the groupKey as the user wrote it (first in display order), else the catalogue's name. */
  name: string;
  /** A stable id for the section (its name in lower case): for DOM ids and remembered collapsed sections. */
  id: string;
  source: CardSectionSource;
  keys: string[];
}

const SOURCE_RANK: Record<CardSectionSource, number> = { group: 0, catalogue: 1, other: 2 };

/** The lower-case id of a section name; names that differ only in case are one section. */
export function sectionId(name: string): string {
  return name.toLocaleLowerCase('en');
}

/**
 * The cards of the device page in sections. Keys are put in display order first (orderedKeys:
 * sort, then catalogue order, then name; hidden keys left out). Each key goes to the section its
 * display setting's groupKey names, else to its catalogue section, else to 'Other'; a groupKey
 * that names a catalogue section (any case) joins it. Sections with a user's groupKey come first,
 * then the catalogue's, each in the display order of its first card; 'Other' is last (a groupKey
 * 'Other' joins it). Every shown key is in exactly one section.
 */
export function cardSections(keys: readonly string[], displaySettings: Record<string, unknown>): CardSection[] {
  const settings = displaySettings !== null && typeof displaySettings === 'object' ? displaySettings : {};
  const byId = new Map<string, CardSection & { first: number }>();
  orderedKeys(keys, settings).forEach((key, position) => {
    const own = sectionNameOf(Object.hasOwn(settings, key) ? settings[key] : undefined);
    const catalogue = measurementSection(key);
    const id = sectionId(own ?? catalogue ?? OTHER_SECTION);
    const other = id === sectionId(OTHER_SECTION);
    const name = other ? OTHER_SECTION : (own ?? catalogue ?? OTHER_SECTION);
    const source: CardSectionSource = other ? 'other' : own !== null ? 'group' : 'catalogue';
    const section = byId.get(id);
    if (!section) {
      byId.set(id, { name, id, source, keys: [key], first: position });
      return;
    }
    section.keys.push(key);
    // A user's groupKey makes the section theirs: it moves up with the groups and takes their spelling.
    if (SOURCE_RANK[source] < SOURCE_RANK[section.source]) {
      section.source = source;
      section.name = name;
    }
  });
  return [...byId.values()]
    .sort((a, b) => SOURCE_RANK[a.source] - SOURCE_RANK[b.source] || a.first - b.first)
    .map(({ name, id, source, keys: sectionKeys }) => ({ name, id, source, keys: sectionKeys }));
}

/** The section names the Display Settings dialog suggests: the page's sections but 'Other' (a card leaves it by joining one). */
export function sectionSuggestions(sections: readonly CardSection[]): string[] {
  return sections.filter((s) => s.source !== 'other').map((s) => s.name);
}
