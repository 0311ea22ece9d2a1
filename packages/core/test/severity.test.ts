import { describe, expect, it } from 'vitest';
import {
  COLOUR_CLASS_COLOURS,
  MAP_SEVERITIES,
  AA_TEXT_CONTRAST,
  PAGE_COLOURS,
  SEVERITY_COLOURS,
  SEVERITY_TEXT_COLOURS,
  clusterSize,
  contrastRatio,
  eventColourClass,
  eventLabel,
  eventLevel,
  levelFromLv,
  levelFromWord,
  markerSeverity,
  mostSevere,
  severityColourClass,
  type EventLevel,
  type MapSeverity,
} from '../src/index';
import { makeEvent } from '../src/testing';

describe('event levels from lv (CARD-25, DESIGN.md section 5)', () => {
  it.each<[unknown, EventLevel | null]>([
    [1, 'info'],
    [10, 'info'],
    [11, 'alert'],
    [20, 'alert'],
    [21, 'warning'],
    [30, 'warning'],
    [31, 'alarm'],
    [40, 'alarm'],
    [0, 'info'], // below 1
    [-5, 'info'],
    [41, 'alarm'], // above 40
    [1000, 'alarm'],
    [10.5, 'alert'],
    ['25', 'warning'],
    ['', null],
    ['abc', null],
    [null, null],
    [undefined, null],
    [Number.NaN, null],
    ['__proto__', null],
  ])('levelFromLv(%j) -> %s', (lv, level) => expect(levelFromLv(lv)).toBe(level));

  it.each([
    [10, 'INFO'],
    [11, 'ALERT'],
    [30, 'WARN'],
    [31, 'ALARM'],
    [40, 'ALARM'],
  ])('CARD-25 ledger: lv %i is labelled %s', (lv, label) => expect(eventLabel(makeEvent({ lv }))).toBe(label));
});

describe('severity words', () => {
  it.each<[unknown, EventLevel | null]>([
    ['ALARM', 'alarm'],
    ['WARN', 'warning'],
    ['WARNING', 'warning'],
    ['ALERT', 'alert'],
    ['INFO', 'info'],
    ['alarm', 'alarm'],
    [' warn ', 'warning'],
    ['xyz', null],
    ['', null],
    ['__proto__', null],
    [null, null],
    [3, null],
  ])('levelFromWord(%j) -> %s', (word, level) => expect(levelFromWord(word)).toBe(level));

  it.each<[unknown, string]>([
    ['ALARM', 'danger'],
    ['WARN', 'warning'],
    ['ALERT', 'info'],
    ['INFO', 'muted'],
    ['xyz', 'muted'],
    ['', 'muted'],
    ['__proto__', 'muted'],
    ['constructor', 'muted'],
    [null, 'muted'],
    [undefined, 'muted'],
    ['X'.repeat(100_000), 'muted'],
  ])('CARD-26 severityColourClass(%j) -> %s', (word, cls) => expect(severityColourClass(word)).toBe(cls));
});

describe('event classification (CARD-27, I-01)', () => {
  it.each<[Record<string, unknown> | null | undefined, EventLevel]>([
    [{ lv: 35 }, 'alarm'], // only lv
    [{ severity: 'WARN' }, 'warning'], // only severity
    [{ severity: 'INFO', lv: 35 }, 'info'], // the word wins
    [{ severity: 'ALARM', lv: 1 }, 'alarm'],
    [{ severity: 'xyz', lv: 15 }, 'alert'], // unrecognised word: lv decides
    [{}, 'info'],
    [null, 'info'],
    [undefined, 'info'],
  ])('eventLevel(%j) -> %s', (event, level) => expect(eventLevel(event)).toBe(level));

  it('an event colour follows its level', () => {
    expect(eventColourClass({ lv: 35 })).toBe('danger');
    expect(eventColourClass({ lv: 25 })).toBe('warning');
    expect(eventColourClass({ lv: 15 })).toBe('info');
    expect(eventColourClass({ lv: 5 })).toBe('muted');
  });
});

describe('map severity', () => {
  it('MAP-05: exactly four severities, each with its own colour', () => {
    expect(MAP_SEVERITIES).toEqual(['alarm', 'warning', 'info', 'normal']);
    const colours = MAP_SEVERITIES.map((s) => SEVERITY_COLOURS[s]);
    expect(new Set(colours).size).toBe(4);
    for (const c of colours) expect(c).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('uses the UI.md palette', () => {
    expect(SEVERITY_COLOURS).toEqual({
      alarm: '#d32f2f',
      warning: '#f59e0b',
      info: '#0284c7',
      normal: '#16a34a',
      muted: '#9ca3af',
    });
    expect(COLOUR_CLASS_COLOURS.danger).toBe('#d32f2f');
  });

  // The web app's status tints (warning, error, info and success panels) behind status text.
  const TINTS = ['#fff8eb', '#fdf0f0', '#eff6ff', '#ecfdf3'];
  const BACKGROUNDS = [PAGE_COLOURS.white, PAGE_COLOURS.ground, ...TINTS];

  it.each(Object.entries(SEVERITY_TEXT_COLOURS))(
    'the %s text shade (%s) reaches AA (4.5:1) on white, the ground and every status tint',
    (_name, text) => {
      for (const background of BACKGROUNDS)
        expect(contrastRatio(text, background), `${text} on ${background}`).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
    },
  );

  it('each status colour has a text shade; the bright fills themselves fall short as text (amber 2.2:1)', () => {
    expect(Object.keys(SEVERITY_TEXT_COLOURS).sort()).toEqual(Object.keys(SEVERITY_COLOURS).sort());
    expect(contrastRatio(SEVERITY_COLOURS.warning, PAGE_COLOURS.white)).toBeLessThan(2.2);
    expect(SEVERITY_TEXT_COLOURS.warning).toBe('#b45309');
  });

  it.each<[Record<string, unknown>[] | null | undefined, MapSeverity]>([
    [[{ severity: 'WARN' }, { severity: 'INFO' }], 'warning'], // MAP-04 ledger
    [[], 'normal'],
    [[{ severity: 'ALARM' }, { severity: 'INFO' }], 'alarm'],
    [[{ severity: 'INFO' }], 'info'],
    [[{ severity: 'ALERT' }], 'info'],
    [[{ lv: 5 }, { lv: 25 }, { lv: 35 }], 'alarm'],
    [null, 'normal'],
    [undefined, 'normal'],
  ])('markerSeverity(%j) -> %s', (events, sev) => expect(markerSeverity(events)).toBe(sev));

  it.each<[MapSeverity[], MapSeverity]>([
    [['normal', 'info', 'alarm'], 'alarm'], // MAP-06 ledger
    [['normal', 'warning', 'info'], 'warning'],
    [['info', 'normal'], 'info'],
    [['normal'], 'normal'],
    [[], 'normal'],
    [['__proto__' as MapSeverity, 'info'], 'info'],
  ])('mostSevere(%j) -> %s', (list, sev) => expect(mostSevere(list)).toBe(sev));

  it.each([
    [1, 'small'],
    [4, 'small'],
    [5, 'medium'],
    [9, 'medium'],
    [10, 'large'],
    [500, 'large'],
  ])('MAP-07 clusterSize(%i) -> %s', (n, size) => expect(clusterSize(n)).toBe(size));
});
