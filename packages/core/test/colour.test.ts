import { describe, expect, it } from 'vitest';
import {
  AA_TEXT_CONTRAST,
  BRANDS,
  BRAND_IDS,
  PAGE_COLOURS,
  brandPalette,
  contrastRatio,
  hexToRgb,
  mixColours,
  relativeLuminance,
  rgbToHex,
  shadeForContrast,
  textOn,
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

describe('contrast rules (WCAG 2)', () => {
  it('reads #rgb and #rrggbb, writes #rrggbb, and refuses anything else', () => {
    expect(hexToRgb('#1f4e79')).toEqual([31, 78, 121]);
    expect(hexToRgb('#FFF')).toEqual([255, 255, 255]);
    expect(rgbToHex([31, 78, 121])).toBe('#1f4e79');
    expect(rgbToHex([300, -4, 127.6])).toBe('#ff0080');
    for (const bad of ['red', '#ff', '#fffff', '#ffffffff', 'ffffff', '#ggg']) expect(() => hexToRgb(bad)).toThrow();
    expect(mixColours('#ffffff', '#000000', 0.5)).toBe('#808080');
    expect(mixColours('#1f4e79', '#000000', 1)).toBe('#1f4e79');
  });

  it('gives the contrast ratios axe-core reported on the device page (issue 11), either way round', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBe(1);
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // axe-core shows the ratio cut to two decimals.
    const shown = (ratio: number) => Math.floor(ratio * 100) / 100;
    expect(shown(contrastRatio('#6b7280', '#f4f6f8'))).toBe(4.46);
    expect(shown(contrastRatio('#ffffff', '#0284c7'))).toBe(4.09);
    expect(shown(contrastRatio('#16a34a', '#ffffff'))).toBe(3.29);
    expect(contrastRatio('#0284c7', '#ffffff')).toBe(contrastRatio('#ffffff', '#0284c7'));
  });

  it('writes white on dark colours, ink on light ones, and black where neither reaches AA', () => {
    expect(textOn('#1f4e79')).toBe(PAGE_COLOURS.white);
    expect(textOn('#00a3a3')).toBe(PAGE_COLOURS.ink);
    expect(textOn('#fde047')).toBe(PAGE_COLOURS.ink);
    // #0284c7: white 4.09, ink 4.33, black 5.33.
    expect(textOn('#0284c7')).toBe(PAGE_COLOURS.black);
    for (let grey = 0; grey <= 255; grey += 1) {
      const background = rgbToHex([grey, grey, grey]);
      expect(contrastRatio(textOn(background), background), background).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
    }
  });

  it('keeps a colour that already reaches the contrast, and darkens one that does not just enough', () => {
    expect(shadeForContrast('#1F4E79', [PAGE_COLOURS.white])).toBe('#1f4e79');
    for (const light of ['#0284c7', '#16a34a', '#38bdf8', '#fde047', '#ffffff']) {
      const shade = shadeForContrast(light, [PAGE_COLOURS.white, PAGE_COLOURS.ground]);
      expect(contrastRatio(shade, PAGE_COLOURS.white), light).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
      expect(contrastRatio(shade, PAGE_COLOURS.ground), light).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
      expect(relativeLuminance(shade), light).toBeLessThan(relativeLuminance(light));
      // Minimal: the shade one step lighter (1 % less black) still falls short.
      const black = Array.from({ length: 101 }, (_, i) => i).find(
        (i) => mixColours(light, PAGE_COLOURS.black, 1 - i / 100) === shade,
      );
      expect(black, light).toBeGreaterThan(0);
      const lighter = mixColours(light, PAGE_COLOURS.black, 1 - (black! - 1) / 100);
      expect(contrastRatio(lighter, PAGE_COLOURS.ground), light).toBeLessThan(AA_TEXT_CONTRAST);
    }
    // A higher target (AAA) needs a darker shade.
    const aa = shadeForContrast('#0284c7', [PAGE_COLOURS.white]);
    const aaa = shadeForContrast('#0284c7', [PAGE_COLOURS.white], 7);
    expect(relativeLuminance(aaa)).toBeLessThan(relativeLuminance(aa));
    expect(contrastRatio(aaa, PAGE_COLOURS.white)).toBeGreaterThanOrEqual(7);
  });

  /** Every pairing of a palette that carries text: [text, background]. */
  const textPairs = (p: ReturnType<typeof brandPalette>): [string, string, string][] => [
    ['button text on the button', p['--brand-on-primary'], p['--brand-primary']],
    ['button text on the hovered button', p['--brand-on-primary'], p['--brand-primary-hover']],
    ['primary text on white', p['--brand-primary'], PAGE_COLOURS.white],
    ['primary text on the ground', p['--brand-primary'], PAGE_COLOURS.ground],
    ['primary text on the soft tint (current navigation item)', p['--brand-primary'], p['--brand-primary-soft']],
    ['strong text on the soft tint (hovered item)', p['--brand-primary-strong'], p['--brand-primary-soft']],
    ['links on white', p['--brand-link'], PAGE_COLOURS.white],
    ['links on the ground', p['--brand-link'], PAGE_COLOURS.ground],
    ['text on the accent', p['--brand-on-accent'], p['--brand-accent']],
  ];

  it.each(BRAND_IDS)('%s: every text of the brand palette reaches AA (4.5:1) with white button text', (id) => {
    const palette = brandPalette(BRANDS[id]);
    expect(palette['--brand-on-primary']).toBe(PAGE_COLOURS.white);
    for (const [what, text, background] of textPairs(palette))
      expect(contrastRatio(text, background), `${id}: ${what}`).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
  });

  it('keeps the brand table colours that already pass as they are', () => {
    for (const id of BRAND_IDS) {
      expect(brandPalette(BRANDS[id])['--brand-primary'], id).toBe(BRANDS[id].primary);
      expect(brandPalette(BRANDS[id])['--brand-accent'], id).toBe(BRANDS[id].accent);
    }
  });

  it('derives a darker button shade for a primary too light for white text, and ink on a light accent', () => {
    for (const primary of ['#0284c7', '#16a34a', '#38bdf8', '#f59e0b']) {
      const palette = brandPalette({ primary, accent: '#fde047' });
      expect(palette['--brand-primary'], primary).not.toBe(primary);
      expect(relativeLuminance(palette['--brand-primary']), primary).toBeLessThan(relativeLuminance(primary));
      expect(palette['--brand-on-accent']).toBe(PAGE_COLOURS.ink);
      for (const [what, text, background] of textPairs(palette))
        expect(contrastRatio(text, background), `${primary}: ${what}`).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
    }
  });
});
