import { describe, expect, it, vi } from 'vitest';
import { findPickedGroup, groupPickerText, settlePickedGroup } from '../src/index';

const GROUPS = [
  { groupid: 'GABCDEFGHIJ', groupName: 'North Yard' },
  { groupid: 'G0123456789', groupName: 'Trucks' },
];

describe('groupPickerText (GRP-10)', () => {
  it('upper-cases typed text', () => {
    expect(groupPickerText('abc')).toBe('ABC');
    expect(groupPickerText('gAbc12')).toBe('GABC12');
    expect(groupPickerText('')).toBe('');
  });

  it('reads anything but text as empty', () => {
    for (const value of [null, undefined, 3, {}, ['a']]) expect(groupPickerText(value)).toBe('');
  });
});

describe('findPickedGroup', () => {
  it('finds a group by id, then by name in any case', () => {
    expect(findPickedGroup(GROUPS, 'G0123456789')?.groupName).toBe('Trucks');
    expect(findPickedGroup(GROUPS, 'gabcdefghij')?.groupName).toBe('North Yard');
    expect(findPickedGroup(GROUPS, 'NORTH YARD')?.groupid).toBe('GABCDEFGHIJ');
    expect(findPickedGroup(GROUPS, ' trucks ')?.groupid).toBe('G0123456789');
  });

  it('finds nothing for empty, partial or hostile text', () => {
    for (const text of ['', '  ', 'GABC', '__proto__', 'constructor', 'toString']) {
      expect(findPickedGroup(GROUPS, text)).toBeUndefined();
    }
  });
});

describe('settlePickedGroup (GRP-11)', () => {
  it('keeps a known group without a warning', () => {
    const warn = vi.fn();
    expect(settlePickedGroup(GROUPS, 'G0123456789', warn)).toBe('G0123456789');
    expect(settlePickedGroup(GROUPS, 'north yard', warn)).toBe('GABCDEFGHIJ');
    expect(warn).not.toHaveBeenCalled();
  });

  it('clears an unknown group with a warning', () => {
    const warn = vi.fn();
    expect(settlePickedGroup(GROUPS, 'GZZZZZZZZZZ', warn)).toBe('');
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toContain('GZZZZZZZZZZ');
  });

  it('treats no text as no group, silently', () => {
    const warn = vi.fn();
    expect(settlePickedGroup(GROUPS, '', warn)).toBe('');
    expect(settlePickedGroup([], ' ', warn)).toBe('');
    expect(warn).not.toHaveBeenCalled();
  });

  it('clears any group when the user has none', () => {
    const warn = vi.fn();
    expect(settlePickedGroup([], 'GABCDEFGHIJ', warn)).toBe('');
    expect(warn).toHaveBeenCalledOnce();
  });
});
