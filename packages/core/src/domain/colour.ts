/**
 * Colours a user may give (display settings, trigger buttons): a CSS colour the web app can put
 * in a style as it is, never anything that could carry other CSS (`url(...)`, `;`, `var(...)`).
 */

/** The named colours of CSS Color Module Level 4, and transparent. */
// prettier-ignore
export const CSS_COLOUR_NAMES = [
  'aliceblue', 'antiquewhite', 'aqua', 'aquamarine', 'azure', 'beige', 'bisque', 'black',
  'blanchedalmond', 'blue', 'blueviolet', 'brown', 'burlywood', 'cadetblue', 'chartreuse',
  'chocolate', 'coral', 'cornflowerblue', 'cornsilk', 'crimson', 'cyan', 'darkblue', 'darkcyan',
  'darkgoldenrod', 'darkgray', 'darkgreen', 'darkgrey', 'darkkhaki', 'darkmagenta',
  'darkolivegreen', 'darkorange', 'darkorchid', 'darkred', 'darksalmon', 'darkseagreen',
  'darkslateblue', 'darkslategray', 'darkslategrey', 'darkturquoise', 'darkviolet', 'deeppink',
  'deepskyblue', 'dimgray', 'dimgrey', 'dodgerblue', 'firebrick', 'floralwhite', 'forestgreen',
  'fuchsia', 'gainsboro', 'ghostwhite', 'gold', 'goldenrod', 'gray', 'green', 'greenyellow',
  'grey', 'honeydew', 'hotpink', 'indianred', 'indigo', 'ivory', 'khaki', 'lavender',
  'lavenderblush', 'lawngreen', 'lemonchiffon', 'lightblue', 'lightcoral', 'lightcyan',
  'lightgoldenrodyellow', 'lightgray', 'lightgreen', 'lightgrey', 'lightpink', 'lightsalmon',
  'lightseagreen', 'lightskyblue', 'lightslategray', 'lightslategrey', 'lightsteelblue',
  'lightyellow', 'lime', 'limegreen', 'linen', 'magenta', 'maroon', 'mediumaquamarine',
  'mediumblue', 'mediumorchid', 'mediumpurple', 'mediumseagreen', 'mediumslateblue',
  'mediumspringgreen', 'mediumturquoise', 'mediumvioletred', 'midnightblue', 'mintcream',
  'mistyrose', 'moccasin', 'navajowhite', 'navy', 'oldlace', 'olive', 'olivedrab', 'orange',
  'orangered', 'orchid', 'palegoldenrod', 'palegreen', 'paleturquoise', 'palevioletred',
  'papayawhip', 'peachpuff', 'peru', 'pink', 'plum', 'powderblue', 'purple', 'rebeccapurple',
  'red', 'rosybrown', 'royalblue', 'saddlebrown', 'salmon', 'sandybrown', 'seagreen', 'seashell',
  'sienna', 'silver', 'skyblue', 'slateblue', 'slategray', 'slategrey', 'snow', 'springgreen',
  'steelblue', 'tan', 'teal', 'thistle', 'tomato', 'transparent', 'turquoise', 'violet', 'wheat',
  'white', 'whitesmoke', 'yellow', 'yellowgreen',
] as const;

const NAMES: ReadonlySet<string> = new Set(CSS_COLOUR_NAMES);
const HEX_COLOUR = /^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/;

export const COLOUR_MESSAGE = 'colour must be #rgb, #rgba, #rrggbb, #rrggbbaa or a CSS colour name';

/** True for a hex colour (#rgb, #rgba, #rrggbb, #rrggbbaa) or a CSS named colour (any case). */
export function isCssColour(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  return HEX_COLOUR.test(value) || NAMES.has(value.toLowerCase());
}

/*
 * Contrast rules (WCAG 2): the brand palettes are derived here, so every brand's buttons, links and
 * text reach AA whatever its primary colour is.
 */

/** WCAG 2 AA: the contrast normal-size text needs against its background. */
export const AA_TEXT_CONTRAST = 4.5;

/** The page's own colours (apps/web/src/styles/global.css): white cards on a light grey ground, dark ink. */
export const PAGE_COLOURS = { white: '#ffffff', ground: '#f4f6f8', ink: '#111827', black: '#000000' } as const;

type Rgb = readonly [number, number, number];

const HEX_RGB = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The red, green and blue (0-255) of a #rgb or #rrggbb colour; throws on anything else. */
export function hexToRgb(hex: string): Rgb {
  if (!HEX_RGB.test(hex)) throw new Error(`not a #rgb or #rrggbb colour: ${hex}`);
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d).join('') : hex.slice(1);
  const value = Number.parseInt(digits, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** #rrggbb (lower case) of red, green and blue, each rounded and kept within 0-255. */
export function rgbToHex(rgb: Rgb): string {
  return (
    '#' +
    rgb
      .map((c) =>
        Math.min(255, Math.max(0, Math.round(c)))
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')
  );
}

/** `weight` (0-1) of colour a, the rest of colour b. */
export function mixColours(a: string, b: string, weight: number): string {
  const ca = hexToRgb(a);
  const cb = hexToRgb(b);
  return rgbToHex([0, 1, 2].map((i) => ca[i]! * weight + cb[i]! * (1 - weight)) as unknown as Rgb);
}

/** WCAG 2 relative luminance (0 black - 1 white). */
export function relativeLuminance(hex: string): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = hexToRgb(hex).map(channel) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours (1 to 21), the same either way round. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The text colour for a background: white, else the page's ink, else black, the first that reaches
 * AA on it (black or white always does: one of them reaches at least 4.58:1 on any colour).
 */
export function textOn(background: string): string {
  const { white, ink, black } = PAGE_COLOURS;
  return [white, ink].find((text) => contrastRatio(background, text) >= AA_TEXT_CONTRAST) ?? black;
}

/**
 * The colour itself when it reaches `min` contrast against every colour of `against`, else the
 * colour darkened (mixed with black, 1 % at a time) just enough that it does. `against` may depend
 * on the shade (a tint of it, say): it is asked again for each shade tried.
 */
export function shadeForContrast(
  colour: string,
  against: readonly string[] | ((shade: string) => readonly string[]),
  min = AA_TEXT_CONTRAST,
): string {
  const backgrounds = typeof against === 'function' ? against : () => against;
  for (let black = 0; black <= 100; black += 1) {
    const shade = black === 0 ? colour.toLowerCase() : mixColours(colour, PAGE_COLOURS.black, 1 - black / 100);
    if (backgrounds(shade).every((b) => contrastRatio(shade, b) >= min)) return shade;
  }
  return PAGE_COLOURS.black;
}

/** The colour tokens of a brand's style sheet (public/brands/{id}/style.css), by CSS custom property. */
export interface BrandPalette {
  '--brand-primary': string;
  '--brand-primary-hover': string;
  '--brand-primary-strong': string;
  '--brand-primary-soft': string;
  '--brand-primary-tint': string;
  '--brand-focus': string;
  '--brand-on-primary': string;
  '--brand-accent': string;
  '--brand-on-accent': string;
  '--brand-link': string;
}

/** The soft background of hovered and current items (navigation, lists), from the primary. */
const softOf = (primary: string) => mixColours(primary, PAGE_COLOURS.white, 0.08);

/**
 * A brand's palette from its primary and accent colours (UI.md brand table). The primary is what
 * buttons are filled with (white text) and what links, the current navigation item and outlined
 * buttons are written in, on white, on the page ground and on the soft tint: when the brand's own
 * primary is too light for AA against any of them, a darker shade of it takes its place.
 */
export function brandPalette(colours: { primary: string; accent: string }): BrandPalette {
  const { white, black } = PAGE_COLOURS;
  const primary = shadeForContrast(colours.primary, (shade) => [white, PAGE_COLOURS.ground, softOf(shade)]);
  return {
    '--brand-primary': primary,
    '--brand-primary-hover': mixColours(primary, black, 0.85),
    '--brand-primary-strong': mixColours(primary, black, 0.7),
    '--brand-primary-soft': softOf(primary),
    '--brand-primary-tint': mixColours(primary, white, 0.16),
    '--brand-focus': mixColours(primary, white, 0.45),
    '--brand-on-primary': white,
    '--brand-accent': colours.accent,
    '--brand-on-accent': textOn(colours.accent),
    '--brand-link': primary,
  };
}
