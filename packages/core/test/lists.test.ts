import { describe, expect, it } from 'vitest';
import {
  LIST_MAX_ENTRIES,
  STORAGE_KEYS,
  USER_SCOPED_STORAGE_KEYS,
  addListEntry,
  hasListEntry,
  homeGroupId,
  parseStoredList,
  removeListEntry,
  toggleListEntry,
  type ListEntry,
} from '../src/index';
import { makeListEntry } from '../src/testing';

const entry = (id: string, ts: number, name = id): ListEntry => makeListEntry({ id, ts, name });

describe('storage keys', () => {
  it('are the brief names', () => {
    expect(STORAGE_KEYS).toEqual({
      favourites: 'portal.favourites',
      recent: 'portal.recent',
      scriptTheme: 'portal.scriptTheme',
      lastUser: 'portal.lastUser',
      collapsedSections: 'portal.collapsedSections',
    });
  });
  it('AUTH-12: favourites, recent and the script theme (and folded Data page sections) are cleared on a user change', () => {
    expect([...USER_SCOPED_STORAGE_KEYS].sort()).toEqual([
      'portal.collapsedSections',
      'portal.favourites',
      'portal.recent',
      'portal.scriptTheme',
    ]);
  });
});

describe('addListEntry', () => {
  it('HOME-15: 11 entries with increasing ts keep 10 and drop ts=1', () => {
    let list: ListEntry[] = [];
    for (let ts = 1; ts <= 11; ts += 1) list = addListEntry(list, entry(`id${ts}`, ts));
    expect(LIST_MAX_ENTRIES).toBe(10);
    expect(list).toHaveLength(10);
    expect(list.some((e) => e.ts === 1)).toBe(false);
    expect(list.map((e) => e.ts)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  });

  it('HOME-14: entries are {id, name, ts} and survive JSON', () => {
    const list = addListEntry([], entry('AB12CD34E', 5, 'Pump 1'));
    expect(JSON.parse(JSON.stringify(list))).toEqual([{ id: 'AB12CD34E', name: 'Pump 1', ts: 5 }]);
  });

  it('a repeated id updates name and ts instead of duplicating', () => {
    let list = addListEntry([], entry('a', 1, 'Old'));
    list = addListEntry(list, entry('b', 2));
    list = addListEntry(list, entry('a', 3, 'New'));
    expect(list).toEqual([entry('a', 3, 'New'), entry('b', 2)]);
  });

  it('drops the oldest by ts, not by position', () => {
    const full = Array.from({ length: 10 }, (_, i) => entry(`id${i}`, i === 5 ? 0 : 100 + i));
    const next = addListEntry(full, entry('new', 50));
    expect(next).toHaveLength(10);
    expect(hasListEntry(next, 'id5')).toBe(false);
    expect(hasListEntry(next, 'new')).toBe(true);
  });

  it('does not mutate its input', () => {
    const list = [entry('a', 1)];
    addListEntry(list, entry('b', 2));
    expect(list).toEqual([entry('a', 1)]);
  });

  it.each([null, undefined, 'junk' as unknown as ListEntry[]])('treats %j as empty', (bad) => {
    expect(addListEntry(bad, entry('a', 1))).toEqual([entry('a', 1)]);
  });

  it('honours max, and max 0 keeps nothing', () => {
    expect(addListEntry([entry('a', 1), entry('b', 2)], entry('c', 3), 2).map((e) => e.id)).toEqual(['c', 'b']);
    expect(addListEntry([], entry('a', 1), 0)).toEqual([]);
  });

  it("handles the id '__proto__'", () => {
    const list = addListEntry(addListEntry([], entry('__proto__', 1)), entry('__proto__', 2));
    expect(list).toEqual([entry('__proto__', 2)]);
  });
});

describe('removing and toggling', () => {
  it('removeListEntry', () => {
    expect(removeListEntry([entry('a', 1), entry('b', 2)], 'a')).toEqual([entry('b', 2)]);
    expect(removeListEntry(null, 'a')).toEqual([]);
    expect(removeListEntry([entry('a', 1)], 'zzz')).toEqual([entry('a', 1)]);
  });
  it('toggleListEntry adds then removes', () => {
    const on = toggleListEntry([], entry('a', 1));
    expect(on).toEqual([entry('a', 1)]);
    expect(toggleListEntry(on, entry('a', 2))).toEqual([]);
  });
});

describe('parseStoredList', () => {
  it.each([null, undefined, '', 'not json', '{}', '42', 'null', '"x"'])('reads %j as empty', (raw) => {
    expect(parseStoredList(raw)).toEqual([]);
  });

  it('drops bad entries, duplicates and overflow', () => {
    const raw = JSON.stringify([
      { id: 'a', name: 'A', ts: 1 },
      { id: 'a', name: 'A2', ts: 5 },
      { id: '', name: 'x', ts: 2 },
      { id: 'b', name: 'B', ts: 'soon' },
      null,
      { id: 'c', name: 'C', ts: 3, extra: true },
      ...Array.from({ length: 12 }, (_, i) => ({ id: `n${i}`, name: 'N', ts: 10 + i })),
    ]);
    const list = parseStoredList(raw);
    expect(list).toHaveLength(10);
    expect(list[0]).toEqual({ id: 'n11', name: 'N', ts: 21 });
    expect(hasListEntry(list, 'a')).toBe(false); // oldest dropped
    expect(hasListEntry(parseStoredList(raw, 20), 'a')).toBe(true);
    expect(parseStoredList(raw, 20).find((e) => e.id === 'a')?.name).toBe('A2');
  });

  it('is not fooled by __proto__ keys', () => {
    const list = parseStoredList('[{"__proto__": {"id": "x"}, "id": "a", "name": "A", "ts": 1}]');
    expect(list).toEqual([{ id: 'a', name: 'A', ts: 1 }]);
  });
});

describe('homeGroupId (HOME-02, HOME-03)', () => {
  const groups = [{ groupid: 'GROUPAAAAAA' }, { groupid: 'GROUPBBBBBB' }];

  it('picks the newest recent entry that is one of the user’s groups', () => {
    const recent = [entry('DEVICE001', 30), entry('GROUPBBBBBB', 20), entry('GROUPAAAAAA', 10)];
    expect(homeGroupId(recent, groups)).toBe('GROUPBBBBBB');
    expect(homeGroupId([...recent].reverse(), groups)).toBe('GROUPBBBBBB');
  });

  it('skips a recent group the user is no longer in', () => {
    expect(homeGroupId([entry('GROUPGONE00', 50), entry('GROUPAAAAAA', 1)], groups)).toBe('GROUPAAAAAA');
  });

  it('falls back to the first group without history, and to null without groups', () => {
    expect(homeGroupId([], groups)).toBe('GROUPAAAAAA');
    expect(homeGroupId([entry('DEVICE001', 5)], groups)).toBe('GROUPAAAAAA');
    expect(homeGroupId(null, groups)).toBe('GROUPAAAAAA');
    expect(homeGroupId([entry('GROUPAAAAAA', 5)], [])).toBeNull();
    expect(homeGroupId(undefined, undefined)).toBeNull();
  });

  it('does not reorder the list it is given', () => {
    const recent = [entry('GROUPAAAAAA', 1), entry('GROUPBBBBBB', 2)];
    homeGroupId(recent, groups);
    expect(recent.map((e) => e.id)).toEqual(['GROUPAAAAAA', 'GROUPBBBBBB']);
  });
});
