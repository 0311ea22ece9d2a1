import { describe, expect, it } from 'vitest';
import {
  DisplaySettingSchema,
  MEASUREMENT_CATALOGUE,
  MEASUREMENT_PATTERNS,
  MEASUREMENT_SECTIONS,
  OTHER_SECTION,
  cardSections,
  draftFromDisplay,
  draftErrors,
  measurementSection,
  mergeDisplaySetting,
  orderedKeys,
  resolveDisplay,
  sectionNameOf,
  sectionSuggestions,
  settingFromDraft,
  type CardSection,
} from '../src/index';
import { SIMULATOR_COMMON_KEYS } from '../src/testing';

/** The keys a QUAD-C2 sends (apps/simulator/src/models.ts): 49 cards on its Data page. */
const QUAD_C2_KEYS = [
  ...SIMULATOR_COMMON_KEYS,
  ...[1, 2, 3, 4, 5].flatMap((n) => [`analog${n}`, `current${n}`, `digital${n}`]),
  ...[1, 2, 3].flatMap((n) => [`freq${n}`, `duty${n}`, `pulse${n}`]),
  ...[1, 2, 3, 4, 5, 6].map((n) => `state${n}_hrs`),
  'hourmeter_hrs',
  'state',
  'cp1',
  'cp2',
];

/** The sections as [name, keys] pairs, for short expectations. */
const shape = (sections: CardSection[]) => sections.map((s) => [s.name, s.keys] as const);
const names = (sections: CardSection[]) => sections.map((s) => s.name);

describe('measurementSection: the catalogue default sections (DESIGN.md section 5)', () => {
  it.each([
    ['vsys', 'Power'],
    ['batt', 'Power'],
    ['engine_speed', 'Engine'],
    ['coolant_temp', 'Engine'],
    ['fuel_level', 'Engine'],
    ['ain3', 'Inputs'],
    ['analog5', 'Inputs'],
    ['current1', 'Inputs'],
    ['digital2', 'Inputs'],
    ['freq1', 'Inputs'],
    ['duty4', 'Inputs'],
    ['pulse3', 'Inputs'],
    ['state4_hrs', 'Hours'],
    ['hourmeter_hrs', 'Hours'],
    ['engine_hours', 'Hours'],
    ['state', 'Hours'],
    ['gps_lat', 'GPS'],
    ['gps_speed', 'GPS'],
    ['ambient_temp', 'Sensors'],
    ['accel_z', 'Sensors'],
    ['spn190', 'CAN'],
    ['modbus7', 'Modbus'],
    ['cp12', 'Custom'],
    ['gsm_rssi', 'Device'],
    ['cpu_temp', 'Device'],
  ])('%s is in %s', (key, section) => expect(measurementSection(key)).toBe(section));

  it.each(['flow_rate', '', '__proto__', 'analog6', 'cp100', 'Vsys'])('%j has no catalogue section', (key) => {
    expect(measurementSection(key)).toBeNull();
  });

  it('every catalogue entry and family names a section of the list, none of them Other', () => {
    const used = new Set([
      ...MEASUREMENT_CATALOGUE.map((m) => m.section),
      ...MEASUREMENT_PATTERNS.map((p) => p.section),
    ]);
    expect([...used].sort()).toEqual([...MEASUREMENT_SECTIONS].sort());
    expect(MEASUREMENT_SECTIONS).not.toContain(OTHER_SECTION);
  });
});

describe('cardSections', () => {
  it('a 49-key QUAD without display settings reads as a few labelled sections, every key once', () => {
    const sections = cardSections(QUAD_C2_KEYS, {});
    expect(names(sections)).toEqual(['Power', 'Sensors', 'Inputs', 'Hours', 'Custom', 'GPS', 'Device']);
    expect(sections.every((s) => s.source === 'catalogue')).toBe(true);
    const all = sections.flatMap((s) => s.keys);
    expect(all).toHaveLength(49);
    expect([...all].sort()).toEqual([...QUAD_C2_KEYS].sort());
    // Within a section, the display order.
    expect(sections.find((s) => s.name === 'Power')?.keys).toEqual(['vsys', 'batt']);
    expect(sections.find((s) => s.name === 'Inputs')?.keys.slice(0, 6)).toEqual([
      'analog1',
      'analog2',
      'analog3',
      'analog4',
      'analog5',
      'current1',
    ]);
  });

  it('sections follow the display order of their first card; cards keep the display order', () => {
    const settings = { cp2: { sort: 1 }, vsys: { sort: 3 }, gps_lat: { sort: 2 }, batt: { sort: 90 } };
    const sections = cardSections(['batt', 'vsys', 'gps_lat', 'gps_lon', 'cp1', 'cp2'], settings);
    expect(shape(sections)).toEqual([
      ['Custom', ['cp2', 'cp1']],
      ['GPS', ['gps_lat', 'gps_lon']],
      ['Power', ['vsys', 'batt']],
    ]);
  });

  it('cards sharing a groupKey sit together under its name, before the catalogue sections', () => {
    const settings = {
      analog1: { groupKey: 'Hydraulics' },
      cp2: { groupKey: 'Hydraulics', sort: 60 },
      pulse1: { groupKey: 'Hydraulics', sort: 10 },
      vsys: { sort: 1 },
    };
    const sections = cardSections(['vsys', 'batt', 'analog1', 'analog2', 'pulse1', 'cp1', 'cp2'], settings);
    expect(shape(sections)).toEqual([
      ['Hydraulics', ['pulse1', 'analog1', 'cp2']],
      ['Power', ['vsys', 'batt']],
      ['Inputs', ['analog2']],
      ['Custom', ['cp1']],
    ]);
    expect(sections.map((s) => s.source)).toEqual(['group', 'catalogue', 'catalogue', 'catalogue']);
  });

  it('user groups come in the display order of their first card', () => {
    const settings = { gps_lat: { groupKey: 'B', sort: 5 }, vsys: { groupKey: 'A', sort: 9 }, batt: { sort: 1 } };
    expect(names(cardSections(['vsys', 'batt', 'gps_lat'], settings))).toEqual(['B', 'A', 'Power']);
  });

  it("keys the catalogue does not know go in 'Other', last, even before a key of a section", () => {
    const settings = { flow_rate: { sort: 1 } };
    const sections = cardSections(['flow_rate', 'vsys', 'zeta', 'alpha'], settings);
    expect(shape(sections)).toEqual([
      ['Power', ['vsys']],
      [OTHER_SECTION, ['flow_rate', 'alpha', 'zeta']],
    ]);
    expect(sections.at(-1)?.source).toBe('other');
  });

  it("a groupKey naming a catalogue section (any case) joins it, with the user's spelling and place", () => {
    const settings = { cp1: { groupKey: 'power' } };
    const sections = cardSections(['gps_lat', 'vsys', 'cp1'], settings);
    expect(shape(sections)).toEqual([
      ['power', ['vsys', 'cp1']],
      ['GPS', ['gps_lat']],
    ]);
    expect(sections[0]).toMatchObject({ id: 'power', source: 'group' });
  });

  it("a groupKey 'Other' puts the card in Other, still last", () => {
    const sections = cardSections(['vsys', 'batt'], { vsys: { groupKey: 'other' } });
    expect(shape(sections)).toEqual([
      ['Power', ['batt']],
      [OTHER_SECTION, ['vsys']],
    ]);
  });

  it('groupKeys differing only in spaces or case are one section, named as the first card has it', () => {
    const settings = { vsys: { groupKey: '  Pump   Room ' }, batt: { groupKey: 'PUMP ROOM' } };
    expect(shape(cardSections(['batt', 'vsys'], settings))).toEqual([['Pump Room', ['vsys', 'batt']]]);
  });

  it('a blank or non-text groupKey is no group: the catalogue section applies', () => {
    const settings = { vsys: { groupKey: '   ' }, batt: { groupKey: 7 }, gps_lat: { groupKey: null } };
    expect(shape(cardSections(['vsys', 'batt', 'gps_lat'], settings))).toEqual([
      ['Power', ['vsys', 'batt']],
      ['GPS', ['gps_lat']],
    ]);
  });

  it('hidden cards are in no section; no keys give no sections', () => {
    expect(shape(cardSections(['vsys', 'batt'], { vsys: { displayType: 'hide', groupKey: 'X' } }))).toEqual([
      ['Power', ['batt']],
    ]);
    expect(cardSections([], {})).toEqual([]);
  });

  it('holds every shown key exactly once, in the same order as orderedKeys within each section', () => {
    const settings = { analog2: { groupKey: 'Tank', sort: 3 }, gps_lat: { groupKey: 'Tank' }, cp1: { sort: 2 } };
    const sections = cardSections(QUAD_C2_KEYS, settings);
    const ordered = orderedKeys(QUAD_C2_KEYS, settings);
    expect([...sections.flatMap((s) => s.keys)].sort()).toEqual([...ordered].sort());
    for (const s of sections) expect(s.keys).toEqual(ordered.filter((k) => s.keys.includes(k)));
  });

  it.each([
    ['null settings', null],
    ['an array', []],
    ['a string', 'x'],
    ['junk entries', { vsys: 'x', batt: [1], __proto__: { groupKey: 'Evil' } }],
  ])('junk display settings (%s) give the catalogue sections', (_label, settings) => {
    expect(names(cardSections(['vsys', 'batt', 'x'], settings as unknown as Record<string, unknown>))).toEqual([
      'Power',
      OTHER_SECTION,
    ]);
  });

  it("an inherited groupKey is not the key's own", () => {
    const settings = Object.create({ vsys: { groupKey: 'Evil' } }) as Record<string, unknown>;
    expect(names(cardSections(['vsys'], settings))).toEqual(['Power']);
  });
});

describe('sectionSuggestions', () => {
  it("names the page's sections but Other", () => {
    const sections = cardSections(['x', 'vsys', 'cp1'], { cp1: { groupKey: 'Loads' } });
    expect(sectionSuggestions(sections)).toEqual(['Loads', 'Power']);
  });
});

describe('the Display Settings dialog edits the section (groupKey)', () => {
  const draftOf = (key: string, setting?: unknown) => draftFromDisplay(resolveDisplay(key, setting, 1));

  it('starts from the stored groupKey, blank without one', () => {
    expect(draftOf('vsys', { groupKey: ' Pump  Room ' }).groupKey).toBe('Pump Room');
    expect(draftOf('vsys').groupKey).toBe('');
  });

  it('saves a sanitised section name, at most 20 characters; a blank one is left out', () => {
    const save = (groupKey: string) => settingFromDraft('vsys', false, { ...draftOf('vsys'), groupKey });
    expect(save('  Tank  levels ').groupKey).toBe('Tank levels');
    expect(save('<Pump> "A"').groupKey).toBe('Pump A');
    expect(save('x'.repeat(30)).groupKey).toBe('x'.repeat(20));
    expect(save('   ')).not.toHaveProperty('groupKey');
    expect(DisplaySettingSchema.parse(save('Tank'))).toEqual(save('Tank'));
  });

  it('a section name over 20 characters is an error', () => {
    expect(draftErrors({ ...draftOf('vsys'), groupKey: 'x'.repeat(21) })).toEqual({
      groupKey: 'At most 20 characters.',
    });
    expect(draftErrors({ ...draftOf('vsys'), groupKey: 'x'.repeat(20) })).toEqual({});
  });

  it('a section cleared in the dialog is removed; the other stored fields stay', () => {
    const stored = { groupKey: 'Old', operatorEditable: true, colour: '#ff0000' };
    const saved = mergeDisplaySetting(
      stored,
      settingFromDraft('vsys', false, { ...draftOf('vsys', stored), groupKey: '' }),
    );
    expect(saved).not.toHaveProperty('groupKey');
    expect(saved).toMatchObject({ operatorEditable: true, colour: '#ff0000' });
    const moved = mergeDisplaySetting(
      stored,
      settingFromDraft('vsys', false, { ...draftOf('vsys', stored), groupKey: 'New' }),
    );
    expect(moved.groupKey).toBe('New');
  });

  it('sectionNameOf reads only a text groupKey', () => {
    expect(sectionNameOf({ groupKey: 'A  B' })).toBe('A B');
    expect(sectionNameOf({ groupKey: 5 })).toBeNull();
    expect(sectionNameOf(null)).toBeNull();
    expect(sectionNameOf('groupKey')).toBeNull();
  });
});
