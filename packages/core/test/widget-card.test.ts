/**
 * Widget cards (ledger WGT-02 - WGT-16, WGT-22): defaults, the 5 px grid and keyboard steps, the
 * indicator's state and colour, '???' and 'NaN', templates with {data.KEY} and {cfg.PATH}, the
 * stale, alert and warning colours, the next free widget{n}, and the schema's checks.
 */
import { describe, expect, it } from 'vitest';
import {
  WidgetCardSchema,
  WIDGET_IMAGE_PATH_MESSAGE,
  widgetImagePath,
  type WidgetCard,
  type WidgetElement,
} from '../src/contracts/device-authoring';
import { DeviceSettingsPutBodySchema } from '../src/contracts/devices';
import { WidgetImageParamsSchema } from '../src/contracts/widget-images';
import { AA_TEXT_CONTRAST, PAGE_COLOURS, contrastRatio } from '../src/domain/colour';
import { SEVERITY_COLOURS } from '../src/domain/severity';
import {
  WIDGET_DEFAULT_COLOURS,
  indicatorSize,
  moveByKey,
  newIndicator,
  newTextComponent,
  newWidgetCard,
  nextItemId,
  nextWidgetKey,
  placeItem,
  readWidgetCard,
  snapToGrid,
  widgetKeys,
} from '../src/domain/widget-card';
import {
  configPaths,
  configValue,
  indicatorState,
  indicatorView,
  levelFraction,
  renderTemplate,
  templateRefs,
  type WidgetContext,
} from '../src/domain/widget-values';

const NOW_S = 1_800_000_000;
const CARD = newWidgetCard();

function ctx(values: WidgetContext['values'], more: Partial<WidgetContext> = {}): WidgetContext {
  return { values, displaySettings: {}, stale: false, ...more };
}

const indicator = (
  settings: Partial<WidgetElement['settings']> = {},
  kind: WidgetElement['active'] = 'statusIndicator',
) => {
  const e = newIndicator(kind, 'e1');
  return { ...e, settings: { ...e.settings, dataElement: 'level', ...settings } };
};

describe('defaults', () => {
  it('a new widget: showLastReading and showUnits true, staleColor grey, 400 x 300, snapping, no items (WGT-03)', () => {
    expect(CARD).toEqual({
      name: 'New widget',
      type: 'widget',
      elements: [],
      components: [],
      width: 400,
      height: 300,
      snapToGrid: true,
      showLastReading: true,
      showUnits: true,
      staleColor: 'grey',
    });
    expect(WidgetCardSchema.parse(CARD)).toEqual(CARD);
  });

  it('a new indicator: thresholds 35/25 and 45/20, range 0-100, rotation 0; 50 px status, 100 px level (WGT-08, WGT-10)', () => {
    for (const kind of ['statusIndicator', 'levelIndicator'] as const) {
      const e = newIndicator(kind, 'e1', 10, 20);
      expect(e).toMatchObject({ id: 'e1', x: 10, y: 20, active: kind });
      expect(e.settings).toMatchObject({ highWarning: 35, lowWarning: 25, highAlarm: 45, lowAlarm: 20 });
      expect(e.settings).toMatchObject({ min: 0, max: 100, rotation: 0 });
      // The schema takes it as it is.
      expect(WidgetCardSchema.parse({ ...CARD, elements: [e] }).elements[0]).toEqual(e);
    }
    expect(indicatorSize(newIndicator('statusIndicator', 'a'))).toEqual({ width: 50, height: 50 });
    expect(indicatorSize(newIndicator('levelIndicator', 'a'))).toEqual({ width: 100, height: 100 });
    // Saved without sizes: the kind's default.
    expect(
      indicatorSize({ active: 'levelIndicator', settings: { ...indicator().settings, width: undefined } }),
    ).toEqual({ width: 100, height: 50 });
  });

  it('a new text: fontSize 16, not bold or underlined (WGT-11)', () => {
    expect(newTextComponent('t1', 5, 5)).toEqual({
      id: 't1',
      x: 5,
      y: 5,
      template: 'Text',
      settings: { fontSize: 16, bold: false, underline: false },
    });
    expect(
      WidgetCardSchema.parse({ ...CARD, components: [{ id: 't1', x: 0, y: 0, template: 'x', settings: {} }] }),
    ).toMatchObject({ components: [{ settings: { fontSize: 16 } }] });
  });

  it('item ids: the first free one of the prefix', () => {
    expect(nextItemId('e', CARD)).toBe('e1');
    const card = { ...CARD, elements: [newIndicator('statusIndicator', 'e1'), newIndicator('levelIndicator', 'e3')] };
    expect(nextItemId('e', card)).toBe('e2');
    expect(nextItemId('t', { ...card, components: [newTextComponent('t1')] })).toBe('t2');
  });
});

describe('the schema (WGT-02, WGT-04, WGT-06, WGT-07, WGT-22)', () => {
  it('active is statusIndicator or levelIndicator, nothing else', () => {
    for (const active of ['gauge', '', 'StatusIndicator', null, '__proto__']) {
      const e = { ...newIndicator('statusIndicator', 'e1'), active };
      expect(WidgetCardSchema.safeParse({ ...CARD, elements: [e] }).success, String(active)).toBe(false);
    }
  });

  it('rotation 0, 90 or 180: 45 and 270 are refused', () => {
    for (const rotation of [0, 90, 180]) {
      const e = newIndicator('levelIndicator', 'e1');
      expect(
        WidgetCardSchema.safeParse({ ...CARD, elements: [{ ...e, settings: { ...e.settings, rotation } }] }).success,
      ).toBe(true);
    }
    for (const rotation of [45, 270, -90, '90']) {
      const e = newIndicator('levelIndicator', 'e1');
      const parsed = WidgetCardSchema.safeParse({
        ...CARD,
        elements: [{ ...e, settings: { ...e.settings, rotation } }],
      });
      expect(parsed.success, String(rotation)).toBe(false);
    }
  });

  it('the image path is the widget-image address or null, never another site', () => {
    const path = widgetImagePath('ABC123456', 'widget3', 1_700_000_000_123);
    expect(path).toBe('/api/device/ABC123456/widget-image/widget3?v=1700000000123');
    expect(WidgetCardSchema.parse({ ...CARD, image: { path, imageIsActive: true } }).image).toEqual({
      path,
      imageIsActive: true,
    });
    expect(WidgetCardSchema.parse({ ...CARD, image: { path: null } }).image).toEqual({
      path: null,
      imageIsActive: false,
    });
    for (const bad of [
      'https://example.com/a.png',
      'data:image/png;base64,AAAA',
      '/api/device/ABC123456/notes-image/asset_image?v=1',
      `${path}&x=1`,
      'javascript:alert(1)',
    ]) {
      const parsed = WidgetCardSchema.safeParse({ ...CARD, image: { path: bad } });
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(WIDGET_IMAGE_PATH_MESSAGE);
    }
  });

  it('PUT settings stores widget{n} checked as a widget card; a bad one names its path', () => {
    const ok = DeviceSettingsPutBodySchema.parse({ PORTAL_displaySettings: { widget1: { name: 'Tank' } } });
    expect(ok.PORTAL_displaySettings?.widget1).toMatchObject({ name: 'Tank', showUnits: true, staleColor: 'grey' });
    const bad = DeviceSettingsPutBodySchema.safeParse({
      PORTAL_displaySettings: { widget2: { elements: [{ ...newIndicator('levelIndicator', 'e1'), active: 'dial' }] } },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['PORTAL_displaySettings', 'widget2', 'elements', 0, 'active']);
  });

  it('the widget-image call takes widget1 to widget999 only', () => {
    for (const widgetid of ['widget1', 'widget99', 'widget999'])
      expect(WidgetImageParamsSchema.safeParse({ id: 'ABC123456', widgetid }).success).toBe(true);
    for (const widgetid of ['widget0', 'widget1000', 'chart1', 'widget01', '__proto__', 'widget1.png'])
      expect(WidgetImageParamsSchema.safeParse({ id: 'ABC123456', widgetid }).success, widgetid).toBe(false);
  });

  it('readWidgetCard fills in defaults, and answers null for what is not a card', () => {
    expect(readWidgetCard({ name: 'A' })).toMatchObject({ name: 'A', width: 400, elements: [] });
    for (const bad of [null, 'widget', 3, [], { width: -1 }, { elements: 'x' }]) expect(readWidgetCard(bad)).toBeNull();
  });
});

describe('placing items (WGT-12)', () => {
  it('snaps to the nearest 5 px', () => {
    expect([13, 12, 12.5, 0, 2, 3, 147, -2].map((v) => snapToGrid(v))).toEqual([15, 10, 15, 0, 0, 5, 145, -0]);
    expect(snapToGrid(Number.NaN)).toBe(0);
  });

  it('a drop lands on the grid and on the card; without snapping on whole pixels', () => {
    const size = { width: 50, height: 50 };
    const card = { width: 400, height: 300 };
    expect(placeItem({ x: 13, y: 27 }, size, card, true)).toEqual({ x: 15, y: 25 });
    expect(placeItem({ x: 13.4, y: 27.6 }, size, card, false)).toEqual({ x: 13, y: 28 });
    expect(placeItem({ x: -40, y: -1 }, size, card, true)).toEqual({ x: 0, y: 0 });
    expect(placeItem({ x: 999, y: 999 }, size, card, true)).toEqual({ x: 350, y: 250 });
    // The room left is not a multiple of 5: the item stays on the card, on the grid.
    expect(placeItem({ x: 999, y: 999 }, { width: 48, height: 48 }, card, true)).toEqual({ x: 350, y: 250 });
    expect(placeItem({ x: 351, y: 0 }, { width: 48, height: 48 }, card, true)).toEqual({ x: 350, y: 0 });
    // Larger than the card: at its top left.
    expect(placeItem({ x: 30, y: 30 }, { width: 500, height: 500 }, card, true)).toEqual({ x: 0, y: 0 });
    expect(placeItem({ x: Number.NaN, y: Infinity }, size, card, true)).toEqual({ x: 0, y: 0 });
  });

  it('arrow keys move by one grid step, ten with Shift, 1 px without snapping; other keys do nothing', () => {
    const size = { width: 50, height: 50 };
    const card = { width: 400, height: 300, snapToGrid: true };
    const at = { x: 100, y: 100 };
    expect(moveByKey('ArrowRight', false, at, size, card)).toEqual({ x: 105, y: 100 });
    expect(moveByKey('ArrowLeft', false, at, size, card)).toEqual({ x: 95, y: 100 });
    expect(moveByKey('ArrowUp', false, at, size, card)).toEqual({ x: 100, y: 95 });
    expect(moveByKey('ArrowDown', true, at, size, card)).toEqual({ x: 100, y: 150 });
    expect(moveByKey('ArrowDown', false, at, size, { ...card, snapToGrid: false })).toEqual({ x: 100, y: 101 });
    // An item off the grid (saved without snapping) moves onto it.
    expect(moveByKey('ArrowRight', false, { x: 13, y: 13 }, size, card)).toEqual({ x: 20, y: 15 });
    expect(moveByKey('ArrowLeft', true, { x: 10, y: 0 }, size, card)).toEqual({ x: 0, y: 0 });
    for (const key of ['Enter', 'a', 'constructor', '__proto__'])
      expect(moveByKey(key, false, at, size, card)).toBeNull();
  });
});

describe('indicators (WGT-09, WGT-15)', () => {
  it('with the default thresholds 30 is normal, 36 warning and 46 alarm; at a limit is that band', () => {
    const s = newIndicator('statusIndicator', 'e1').settings;
    const states = [30, 36, 46, 35, 45, 25, 20, 24, 19, -5, 100].map((v) => indicatorState(v, s));
    expect(states).toEqual([
      'normal',
      'warning',
      'alarm',
      'warning',
      'alarm',
      'warning',
      'alarm',
      'warning',
      'alarm',
      'alarm',
      'alarm',
    ]);
  });

  it('the level fraction is kept within min..max', () => {
    expect(levelFraction(50, 0, 100)).toBe(0.5);
    expect(levelFraction(-10, 0, 100)).toBe(0);
    expect(levelFraction(150, 0, 100)).toBe(1);
    expect(levelFraction(15, 10, 20)).toBe(0.5);
    expect(levelFraction(5, 10, 10)).toBe(0);
    expect(levelFraction(5, 20, 10)).toBe(0);
    expect(levelFraction(Number.NaN, 0, 1)).toBe(0);
  });

  it('a value is shown with its decimals and units in its state colour', () => {
    const values = { level: { v: 36.456, ts: NOW_S } };
    const view = indicatorView(indicator(), CARD, ctx(values));
    expect(view).toMatchObject({ text: '36.46', units: '', state: 'warning', colour: SEVERITY_COLOURS.warning });
    expect(view.fraction).toBeCloseTo(0.36456);
    const volts = indicatorView(
      indicator({ dataElement: 'vsys', highAlarm: 12 }),
      CARD,
      ctx({ vsys: { v: 12.3, ts: NOW_S } }),
    );
    expect(volts).toMatchObject({
      name: 'Supply Voltage',
      text: '12.30',
      units: 'V',
      state: 'alarm',
      colour: '#d32f2f',
    });
    expect(
      indicatorView(
        indicator({ dataElement: 'vsys' }),
        { ...CARD, showUnits: false },
        ctx({ vsys: { v: 12.3, ts: NOW_S } }),
      ).units,
    ).toBe('');
    // The key's own decimals (display settings) win over the catalogue's.
    const dp = ctx({ vsys: { v: 12.3, ts: NOW_S } }, { displaySettings: { vsys: { dp: 0 } } });
    expect(indicatorView(indicator({ dataElement: 'vsys' }), CARD, dp).text).toBe('12');
  });

  it('own colours: normal, warning and alarm; a level’s barColor is its normal colour', () => {
    const s = { normalColor: '#111111', warningColor: '#222222', alarmColor: '#333333' };
    const at = (v: number, kind: WidgetElement['active'] = 'statusIndicator', more = {}) =>
      indicatorView(indicator({ ...s, ...more }, kind), CARD, ctx({ level: { v, ts: NOW_S } })).colour;
    expect([at(30), at(36), at(46)]).toEqual(['#111111', '#222222', '#333333']);
    expect(at(30, 'levelIndicator', { barColor: 'navy' })).toBe('navy');
    expect(at(46, 'levelIndicator', { barColor: 'navy' })).toBe('#333333');
    expect(at(30, 'levelIndicator')).toBe('#111111');
  });

  it("'???' for a missing value or no data element; 'NaN' for text that is not a number; neither has a state", () => {
    const missing = indicatorView(indicator(), CARD, ctx({}));
    expect(missing).toMatchObject({ text: '???', state: null, colour: 'grey', fraction: 0 });
    expect(indicatorView(indicator({ dataElement: undefined }), CARD, ctx({ level: { v: 1, ts: NOW_S } })).text).toBe(
      '???',
    );
    expect(indicatorView(indicator(), CARD, ctx({ level: { v: null, ts: NOW_S } })).text).toBe('???');
    for (const v of ['open', '', '0x10', [1, 2], { a: 1 }]) {
      const view = indicatorView(indicator(), CARD, ctx({ level: { v, ts: NOW_S } }));
      expect(view, JSON.stringify(v)).toMatchObject({ text: 'NaN', units: '', state: null, colour: 'grey' });
    }
    // Numeric text and booleans are numbers.
    expect(indicatorView(indicator(), CARD, ctx({ level: { v: ' 40 ', ts: NOW_S } })).state).toBe('warning');
    expect(indicatorView(indicator(), CARD, ctx({ level: { v: true, ts: NOW_S } })).text).toBe('1.00');
    // A key named like an object's own property is just missing.
    for (const key of ['__proto__', 'constructor', 'toString'])
      expect(indicatorView(indicator({ dataElement: key }), CARD, ctx({})).text).toBe('???');
  });

  it('a last known value: the stale colour; hidden as ??? when the card does not show last readings', () => {
    const values = { level: { v: 46, ts: NOW_S - 600 }, other: { v: 1, ts: NOW_S } };
    expect(indicatorView(indicator(), CARD, ctx(values))).toMatchObject({
      text: '46.00',
      state: 'alarm',
      colour: 'grey',
      stale: true,
    });
    expect(
      indicatorView(indicator(), { ...CARD, staleColor: '#777' }, ctx({ level: { v: 46, ts: NOW_S } }, { stale: true }))
        .colour,
    ).toBe('#777');
    expect(indicatorView(indicator(), { ...CARD, showLastReading: false }, ctx(values)).text).toBe('???');
    // The caller's own stale flag wins over the times.
    expect(
      indicatorView(
        indicator(),
        CARD,
        ctx({ level: { v: 46, ts: NOW_S - 600, stale: false }, other: { v: 1, ts: NOW_S } }),
      ).colour,
    ).toBe(WIDGET_DEFAULT_COLOURS.alarm);
  });
});

describe('templates (WGT-05, WGT-14, WGT-15)', () => {
  const config = { device: { name: 'Yard Pump', base_interval: 60, sleep: false, tags: ['a', 'b'] } };

  it('{data.KEY} shows the value with decimals and units, {cfg.PATH} the config value; the rest as written', () => {
    const parts = renderTemplate(
      'Pump {cfg.device.name}: {data.vsys} ({data.ambient_temp}) every {cfg.device.base_interval} s {cfg.device.tags.1}',
      CARD,
      ctx({ vsys: { v: 12.345, ts: NOW_S }, ambient_temp: { v: 21.04, ts: NOW_S } }, { config }),
    );
    expect(parts.map((p) => p.text).join('')).toBe('Pump Yard Pump: 12.35 V (21.0 °C) every 60 s b');
    expect(parts.filter((p) => p.kind !== 'text').map((p) => [p.kind, p.ref])).toEqual([
      ['cfg', 'device.name'],
      ['data', 'vsys'],
      ['data', 'ambient_temp'],
      ['cfg', 'device.base_interval'],
      ['cfg', 'device.tags.1'],
    ]);
    expect(parts.every((p) => p.colour === undefined)).toBe(true);
    const noUnits = renderTemplate(
      '{data.vsys}',
      { ...CARD, showUnits: false },
      ctx({ vsys: { v: 12.345, ts: NOW_S } }),
    );
    expect(noUnits.map((p) => p.text).join('')).toBe('12.35');
  });

  it("a missing key or path shows '???'; a string shows as text; braces that are no reference stay", () => {
    const text = (t: string) =>
      renderTemplate(t, CARD, ctx({ state: { v: 'open', ts: NOW_S } }, { config }))
        .map((p) => p.text)
        .join('');
    expect(text('{data.nokey}')).toBe('???');
    expect(text('{data.state}')).toBe('open');
    expect(text('{cfg.device.nothing} {cfg.device} {cfg.device.sleep}')).toBe('??? ??? false');
    expect(text('{cfg.__proto__.x} {data.constructor} {cfg.constructor} {data.toString}')).toBe('??? ??? ??? ???');
    // Not a data key name: stays as written.
    expect(text('{data.__proto__}')).toBe('{data.__proto__}');
    expect(text('{data.} {other.x} {data.a b} {{data.state}} {data.9x}')).toBe(
      '{data.} {other.x} {data.a b} {open} {data.9x}',
    );
    expect(text('')).toBe('');
    // Without the config yet: '???'.
    expect(renderTemplate('{cfg.device.name}', CARD, ctx({})).map((p) => p.text)).toEqual(['???']);
  });

  it('a last known value in the stale colour (the default grey drawn legibly); hidden when the card does not show last readings', () => {
    const values = { vsys: { v: 12, ts: NOW_S - 600 }, batt: { v: 4, ts: NOW_S } };
    const legibleGrey = WIDGET_DEFAULT_COLOURS.staleText;
    expect(contrastRatio(legibleGrey, PAGE_COLOURS.white)).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
    expect(renderTemplate('{data.vsys}', CARD, ctx(values))[0]).toMatchObject({
      text: '12.00 V',
      colour: legibleGrey,
      stale: true,
    });
    expect(renderTemplate('{data.batt}', CARD, ctx(values))[0]?.colour).toBeUndefined();
    expect(renderTemplate('{data.batt}', CARD, ctx(values, { stale: true }))[0]?.colour).toBe(legibleGrey);
    for (const staleColor of ['Gray', 'grey']) {
      expect(renderTemplate('{data.vsys}', { ...CARD, staleColor }, ctx(values))[0]?.colour).toBe(legibleGrey);
    }
    // A colour the user chose is kept as chosen.
    expect(renderTemplate('{data.vsys}', { ...CARD, staleColor: 'purple' }, ctx(values))[0]?.colour).toBe('purple');
    expect(renderTemplate('{data.vsys}', { ...CARD, showLastReading: false }, ctx(values))[0]?.text).toBe('???');
  });

  it('with changeColorisActive a value past its limits takes the alert or warning colour (display settings over the catalogue)', () => {
    const card: WidgetCard = { ...CARD, changeColorisActive: true };
    const colour = (v: unknown, c: WidgetCard = card, displaySettings: Record<string, unknown> = {}) =>
      renderTemplate('{data.vsys}', c, ctx({ vsys: { v, ts: NOW_S } }, { displaySettings }))[0]?.colour;
    // The catalogue: vsys warns above 15, alarms at 16.
    expect([colour(12), colour(15.5), colour(17), colour(8)]).toEqual([
      undefined,
      WIDGET_DEFAULT_COLOURS.warningText,
      WIDGET_DEFAULT_COLOURS.alertText,
      WIDGET_DEFAULT_COLOURS.alertText,
    ]);
    expect(colour(17, { ...card, alertColor: 'purple', warningColor: 'orange' })).toBe('purple');
    expect(colour(15.5, { ...card, alertColor: 'purple', warningColor: 'orange' })).toBe('orange');
    // The key's display settings move the limits.
    const gaugeSettings = { min: 0, max: 32, warnLow: 1, warnHigh: 12, alarmLow: 0, alarmHigh: 13 };
    expect(colour(12.5, card, { vsys: { gaugeSettings } })).toBe(WIDGET_DEFAULT_COLOURS.warningText);
    // Off: never recoloured. A key with no limits, or text: never.
    expect(colour(17, { ...CARD, changeColorisActive: false })).toBeUndefined();
    expect(renderTemplate('{data.nolimit}', card, ctx({ nolimit: { v: 1e9, ts: NOW_S } }))[0]?.colour).toBeUndefined();
    expect(colour('high')).toBeUndefined();
  });

  it('templateRefs lists the keys and paths a template reads; configValue walks own keys only', () => {
    expect(templateRefs('{data.vsys} {cfg.device.name} {data.vsys} {data.9} {cfg.a.b}')).toEqual({
      data: ['vsys'],
      cfg: ['device.name', 'a.b'],
    });
    expect(configValue(config, 'device.name')).toBe('Yard Pump');
    expect(configValue(config, 'device.tags.0')).toBe('a');
    expect(configValue(config, 'device.tags.x')).toBeUndefined();
    expect(configValue(config, 'device.name.length')).toBeUndefined();
    expect(configValue(null, 'a')).toBeUndefined();
  });

  it('configPaths offers the scalar leaves, depth- and count-limited', () => {
    expect(configPaths(config)).toEqual(['device.name', 'device.base_interval', 'device.sleep']);
    expect(configPaths({ a: { b: { c: { d: { e: 1 } } } }, f: 2 })).toEqual(['f']);
    expect(configPaths({ a: 1, b: 2, c: 3 }, 4, 2)).toEqual(['a', 'b']);
    expect(configPaths(null)).toEqual([]);
    expect(configPaths({ 'bad key': 1, ok: 'x' })).toEqual(['ok']);
  });
});

describe('widget keys (WGT-16, WGT-22)', () => {
  it('lists widget{n} keys in number order, skipping other keys and removed ones', () => {
    expect(widgetKeys({ widget10: {}, vsys: {}, widget2: {}, chart1: {}, widget3: null, widgetx: {} })).toEqual([
      'widget2',
      'widget10',
    ]);
  });

  it('the next key is the lowest free widget{n}; at 99 widgets the limit message', () => {
    expect(nextWidgetKey({})).toEqual({ ok: true, value: 'widget1' });
    expect(nextWidgetKey({ widget1: {}, widget3: {}, vsys: {} })).toEqual({ ok: true, value: 'widget2' });
    const full: Record<string, unknown> = {};
    for (let n = 1; n <= 98; n += 1) full[`widget${n * 2}`] = {};
    expect(nextWidgetKey(full)).toEqual({ ok: true, value: 'widget1' });
    full.widget999 = {};
    expect(nextWidgetKey(full)).toEqual({ ok: false, error: 'Maximum number of widgets reached [99]' });
  });
});
