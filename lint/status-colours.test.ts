/**
 * Status colours in the web app's style sheets (issue 32, docs/decisions.md UI notes): the bright
 * severity colours are for fills (markers, lamps, bars, borders); text and icons (CSS `color`)
 * take their darker text shades, which reach WCAG AA on white (core SEVERITY_TEXT_COLOURS, whose
 * contrast packages/core/test/severity.test.ts checks). The style sheets' variables are core's
 * colours, and no `color` declaration names a bright one, by variable or by value. A disabled
 * control (`:disabled`) is exempt, as WCAG exempts inactive components.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SEVERITY_COLOURS, SEVERITY_TEXT_COLOURS } from '../packages/core/src/index';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const GLOBAL_CSS = join(ROOT, 'apps/web/src/styles/global.css');

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? cssFiles(join(dir, d.name)) : d.name.endsWith('.css') ? [join(dir, d.name)] : [],
  );
}

const FILES = [...cssFiles(join(ROOT, 'apps/web/src')), ...cssFiles(join(ROOT, 'apps/web/public/brands'))];
const NAMES = Object.keys(SEVERITY_COLOURS) as (keyof typeof SEVERITY_COLOURS)[];

/** A bright status colour as a `color` value: its variable or its hex. */
const BRIGHT = new RegExp(
  `var\\(--sev-(?:${NAMES.join('|')})\\)|${NAMES.map((n) => SEVERITY_COLOURS[n]).join('|')}`,
  'i',
);

/** Every `color: ...` declaration of a file with the selector of its rule, comments left out. */
function colourDeclarations(text: string): { selector: string; value: string }[] {
  const css = text.replace(/\/\*[\s\S]*?\*\//g, '');
  const found: { selector: string; value: string }[] = [];
  for (const rule of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selector = rule[1]!.trim();
    for (const decl of rule[2]!.matchAll(/(?:^|;)\s*color\s*:\s*([^;]+)/g))
      found.push({ selector, value: decl[1]!.trim() });
  }
  return found;
}

describe('status colours: bright for fills, the text shades for text', () => {
  it('finds the style sheets', () => expect(FILES.length).toBeGreaterThan(10));

  it("global.css's status variables are core's colours", () => {
    const css = readFileSync(GLOBAL_CSS, 'utf8');
    const variable = (name: string) => new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(css)?.[1]?.toLowerCase();
    for (const name of NAMES) {
      expect(variable(`sev-${name}`), `--sev-${name}`).toBe(SEVERITY_COLOURS[name]);
      expect(variable(`sev-${name}-text`), `--sev-${name}-text`).toBe(SEVERITY_TEXT_COLOURS[name]);
    }
  });

  it('no text or icon colour is a bright status colour', () => {
    const offending = FILES.flatMap((file) =>
      colourDeclarations(readFileSync(file, 'utf8'))
        .filter((d) => BRIGHT.test(d.value) && !d.selector.includes(':disabled'))
        .map((d) => `${relative(ROOT, file)}: ${d.selector.replace(/\s+/g, ' ')} { color: ${d.value} }`),
    );
    expect(offending).toEqual([]);
  });

  it('would see one', () => {
    const declarations = colourDeclarations(
      '.a .b {\n  background: var(--sev-warning);\n  color: var(--sev-warning);\n}',
    );
    expect(declarations).toEqual([{ selector: '.a .b', value: 'var(--sev-warning)' }]);
    expect(BRIGHT.test(declarations[0]!.value)).toBe(true);
    expect(BRIGHT.test('var(--sev-warning-text)')).toBe(false);
    expect(BRIGHT.test('#F59E0B')).toBe(true);
  });
});
