import { describe, expect, it } from 'vitest';
import {
  COLOUR_MESSAGE,
  CSS_COLOUR_NAMES,
  ColourSchema,
  DeviceConfigPutBodySchema,
  DisplaySettingSchema,
  ScriptTriggerSchema,
  isCssColour,
} from '../src/index';

const HOSTILE = [
  '',
  '__proto__',
  'constructor',
  'toString',
  'url(javascript:x)',
  'red;background:x',
  'red; background: url(x)',
  ' red',
  'red ',
  'var(--x)',
  'expression(alert(1))',
  'inherit',
  'currentcolor',
  'rgb(0,0,0)',
  '#',
  '#ff',
  '#fffff',
  '#fffffff',
  '#ggg',
  '#ffffff;',
  'red\u0000',
  'notacolour',
];
const VALID = ['#fff', '#FFFA', '#0284c7', '#0284C7aa', 'red', 'RebeccaPurple', 'transparent', ...CSS_COLOUR_NAMES];

describe('isCssColour: hex #rgb, #rgba, #rrggbb, #rrggbbaa or a CSS colour name', () => {
  it.each(HOSTILE.map((c) => [JSON.stringify(c), c]))('refuses %s', (_label, colour) => {
    expect(isCssColour(colour)).toBe(false);
  });
  it.each(VALID.map((c) => [c]))('accepts %s', (colour) => {
    expect(isCssColour(colour)).toBe(true);
  });
  it('refuses what is not text', () => {
    for (const value of [null, undefined, 0, 0xffffff, {}, ['red'], { toString: () => 'red' }]) {
      expect(isCssColour(value)).toBe(false);
    }
  });
  it('has each name once, in lower case', () => {
    expect(new Set(CSS_COLOUR_NAMES).size).toBe(CSS_COLOUR_NAMES.length);
    for (const name of CSS_COLOUR_NAMES) expect(name).toMatch(/^[a-z]+$/);
  });
});

describe('every colour field uses the one rule (ColourSchema)', () => {
  const fields: [string, (colour: unknown) => { success: boolean; error?: { issues: { message: string }[] } }][] = [
    ['ColourSchema', (c) => ColourSchema.safeParse(c)],
    ['display setting colour', (c) => DisplaySettingSchema.safeParse({ colour: c })],
    ['trigger colour', (c) => ScriptTriggerSchema.safeParse({ index: 1, name: 'Horn', colour: c })],
  ];
  it.each(fields)('%s', (_name, parse) => {
    for (const colour of HOSTILE) {
      const result = parse(colour);
      expect(result.success, colour).toBe(false);
    }
    expect(parse('url(javascript:x)').error?.issues[0]?.message).toBe(COLOUR_MESSAGE);
    for (const colour of VALID) expect(parse(colour).success, colour).toBe(true);
  });
});

describe("the config's settings.device.name goes through the device name sanitiser", () => {
  const name = (value: unknown) =>
    DeviceConfigPutBodySchema.safeParse({ config: { settings: { device: { name: value } } } });
  it.each([
    ['Pump 1', 'Pump 1'],
    ['<script>', 'script'],
    [`"a" 'b' ~c? \`d\``, 'a b c d'],
    ['__proto__', '__proto__'],
    ['', ''],
  ])('%s -> %s', (input, expected) => {
    const result = name(input);
    expect(result.success).toBe(true);
    expect(result.data?.config.settings.device?.name).toBe(expected);
  });
  it('refuses more than 20 characters, unstorable text and non-text', () => {
    for (const value of ['x'.repeat(21), 'a\u0000', '\ud800', 5, null]) expect(name(value).success).toBe(false);
  });
});
