/**
 * The rule by which `npm start` rebuilds the web app and the server bundle (scripts/stale.mjs):
 * a build is stale when it is missing or a file of its sources is newer than it.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newestFile, whyStale } from '../../../../scripts/stale.mjs';

describe('start: is a build stale', () => {
  let root: string;
  const at = (path: string, seconds: number) => utimesSync(join(root, path), seconds, seconds);
  const file = (path: string, seconds: number) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), path);
    at(path, seconds);
  };
  const inputs = () => ['web/src', 'web/index.html', 'core/src', 'web/public-missing'].map((p) => join(root, p));
  const output = () => join(root, 'web/dist/index.html');

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'portal-stale-'));
    file('web/src/main.tsx', 1_000);
    file('web/src/features/deep/page.tsx', 1_100);
    file('web/index.html', 900);
    file('core/src/index.ts', 1_050);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a missing build is stale', () => {
    expect(whyStale(output(), inputs(), root)).toBe('web/dist/index.html is missing');
  });

  it('a build newer than every source (or as old as the newest) is current; a missing source is skipped', () => {
    file('web/dist/index.html', 2_000);
    expect(whyStale(output(), inputs(), root)).toBeNull();
    at('web/dist/index.html', 1_100);
    expect(whyStale(output(), inputs(), root)).toBeNull();
  });

  it('a source newer than the build, however deep, makes it stale and is named', () => {
    file('web/dist/index.html', 2_000);
    at('web/src/features/deep/page.tsx', 3_000);
    expect(whyStale(output(), inputs(), root)).toBe('web/src/features/deep/page.tsx is newer than web/dist/index.html');
    at('web/src/features/deep/page.tsx', 1_000);
    at('web/index.html', 2_500);
    expect(whyStale(output(), inputs(), root)).toBe('web/index.html is newer than web/dist/index.html');
    at('web/index.html', 1_000);
    file('core/src/domain/new-rule.ts', 2_001);
    expect(whyStale(output(), inputs(), root)).toBe('core/src/domain/new-rule.ts is newer than web/dist/index.html');
  });

  it('newestFile finds the newest file under files and folders, or none', () => {
    expect(newestFile(inputs())).toEqual({ path: join(root, 'web/src/features/deep/page.tsx'), mtimeMs: 1_100_000 });
    expect(newestFile([join(root, 'nothing-here')])).toBeNull();
  });
});
