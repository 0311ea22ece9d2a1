import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

const files = sourceFiles(SRC).map((path) => ({ name: relative(SRC, path), text: readFileSync(path, 'utf8') }));

describe('packages/core rules (STYLE.md)', () => {
  it('finds the sources', () => expect(files.length).toBeGreaterThan(10));

  it.each(files.map((f) => [f.name, f.text]))('%s imports only zod and its own files', (_name, text) => {
    const specifiers = [...text.matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1]);
    for (const s of specifiers) expect(s === 'zod' || s?.startsWith('./') || s?.startsWith('../')).toBe(true);
  });

  it.each(files.map((f) => [f.name, f.text]))('%s takes time and randomness as arguments', (_name, text) => {
    expect(text).not.toMatch(/Date\.now\(|Math\.random\(|new Date\(\)|performance\.now\(|crypto\./);
  });

  it.each(files.map((f) => [f.name, f.text]))('%s: every exported function has a TSDoc line', (_name, text) => {
    const lines = text.split('\n');
    const missing = lines.flatMap((line, i) => {
      if (!/^export function /.test(line)) return [];
      let j = i - 1;
      // Overload signatures share the TSDoc of the first one.
      while (j >= 0 && /^export function .*;$/.test(lines[j] ?? '')) j -= 1;
      return (lines[j] ?? '').trim().endsWith('*/') ? [] : [line];
    });
    expect(missing).toEqual([]);
  });
});
