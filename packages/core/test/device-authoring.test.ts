import { describe, expect, it } from 'vitest';
import { DeviceSettingsPutBodySchema, WidgetCardSchema, authoredChangeError, authoredKindOf } from '../src/index';

const HOSTED = { name: 'Hosted', dataToPortal: true };
const BASIC = { name: 'Basic', dataToPortal: false };
const widgets = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`widget${i + 1}`, {}]));

describe('device widget cards and custom charts in PORTAL_displaySettings', () => {
  it('tells widget and chart keys from data keys', () => {
    expect(['widget1', 'widget99', 'chart5', 'widget0', 'widgetx', 'chart', 'supply'].map(authoredKindOf)).toEqual([
      'widget',
      'widget',
      'chart',
      null,
      null,
      null,
      null,
    ]);
  });

  it('fills the defaults of a new widget (WGT-03) and checks each key by its own schema', () => {
    expect(WidgetCardSchema.parse({})).toMatchObject({
      type: 'widget',
      showLastReading: true,
      showUnits: true,
      staleColor: 'grey',
      elements: [],
      components: [],
    });
    const body = (value: unknown) =>
      DeviceSettingsPutBodySchema.safeParse({ PORTAL_displaySettings: { widget1: value } });
    expect(body({ elements: [{ id: 'a', x: 0, y: 0, active: 'statusIndicator', settings: {} }] }).success).toBe(true);
    expect(body({ elements: [{ id: 'a', x: 0, y: 0, active: 'dial', settings: {} }] }).success).toBe(false);
    expect(body({ displayType: 'gauge' }).success).toBe(false);
    const chart = DeviceSettingsPutBodySchema.safeParse({ PORTAL_displaySettings: { chart1: { displayType: 'x' } } });
    expect(chart.success).toBe(false);
    if (!chart.success) expect(chart.error.issues[0]?.path).toEqual(['PORTAL_displaySettings', 'chart1']);
    expect(DeviceSettingsPutBodySchema.safeParse({ PORTAL_displaySettings: { supply: { dp: 2 } } }).success).toBe(true);
  });

  it('refuses the 100th widget and the 6th chart, but not an edit past the limit or a removal', () => {
    expect(authoredChangeError(widgets(98), { widget99: {} }, HOSTED)).toBeNull();
    expect(authoredChangeError(widgets(99), { widget100: {} }, HOSTED)).toBe('Maximum number of widgets reached [99]');
    expect(authoredChangeError(widgets(99), { widget5: {} }, HOSTED)).toBeNull();
    expect(authoredChangeError(widgets(99), { widget5: null, widget100: {} }, HOSTED)).toBeNull();
    const charts = { chart1: {}, chart2: {}, chart3: {}, chart4: {}, chart5: {} };
    expect(authoredChangeError(charts, { chart6: {} }, HOSTED)).toBe('Maximum number of charts reached [5]');
    expect(authoredChangeError({ ...charts, chart6: {} }, { chart6: {} }, HOSTED)).toBeNull();
  });

  it('refuses writing either on a plan without data to the portal, with the plan named', () => {
    expect(authoredChangeError({}, { widget1: {} }, BASIC)).toBe('Widgets are unavailable on the Basic Plan');
    expect(authoredChangeError({}, { chart1: {} }, BASIC)).toBe('Custom charts are unavailable on the Basic Plan');
    expect(authoredChangeError({ widget1: {} }, { widget1: null, supply: { dp: 1 } }, BASIC)).toBeNull();
  });
});
