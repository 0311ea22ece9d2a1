/**
 * The repository's lint setup (eslint.config.js) proves the dependency rules of DESIGN.md section 2
 * and STYLE.md 3 and 13: each rule is shown a deliberately wrong import, written into a file of the
 * zone it guards, and must answer with its error; the legal import beside it must pass clean.
 * Imports name real files found at run time, so the cases follow the code as it moves.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const WEB = 'apps/web/src';
const SERVER = 'apps/server/src';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** Lints `import * as m from '<specifier>'` as if it were the file at `filePath`; every error, as `rule: message`. */
async function errors(filePath: string, specifier: string): Promise<string[]> {
  const code = `import * as m from '${specifier}';\nexport const used = m;\n`;
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

/** Lints the file at `filePath` as it is on disk with `extra` appended; every error, as `rule: message`. */
async function errorsWithAdded(filePath: string, extra: string): Promise<string[]> {
  const code = `${readFileSync(join(ROOT, filePath), 'utf8')}\n${extra}`;
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

/** The specifier a file at `from` writes to reach `to` (relative, no extension). */
function relativeSpecifier(from: string, to: string): string {
  const path = relative(dirname(join(ROOT, from)), join(ROOT, to)).replace(/\.tsx?$/, '');
  return path.startsWith('.') ? path : `./${path}`;
}

function dirs(path: string): string[] {
  return readdirSync(join(ROOT, path), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The first .ts/.tsx source file under `path` (depth first, sorted), relative to the root. */
function firstSource(path: string): string {
  const entries = readdirSync(join(ROOT, path), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  const file = entries.find((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'));
  if (file) return `${path}/${file.name}`;
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    try {
      return firstSource(`${path}/${e.name}`);
    } catch {
      // none in that folder
    }
  }
  throw new Error(`no source file under ${path}`);
}

const ZONE = 'import-x/no-restricted-paths';

describe('apps/web/src', () => {
  const features = dirs(`${WEB}/features`);
  const [mine, other] = features;
  const inMine = `${WEB}/features/${mine}/components/lint-probe.tsx`;
  const otherFile = firstSource(`${WEB}/features/${other}`);

  it('has at least two features to check against each other', () => {
    expect(features.length).toBeGreaterThanOrEqual(2);
  });

  it('a feature never imports another feature, by relative path or by alias', async () => {
    expect(await errors(inMine, relativeSpecifier(inMine, otherFile))).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*Features never import each other/),
    ]);
    expect(await errors(inMine, `@/${otherFile.slice(WEB.length + 1).replace(/\.tsx?$/, '')}`)).toEqual([
      expect.stringContaining(ZONE),
    ]);
  });

  it('a feature may import its own files, lib/, components/ and core', async () => {
    const own = firstSource(`${WEB}/features/${mine}`);
    expect(await errors(inMine, relativeSpecifier(inMine, own))).toEqual([]);
    expect(await errors(inMine, '@/lib/api')).toEqual([]);
    expect(await errors(inMine, relativeSpecifier(inMine, firstSource(`${WEB}/components`)))).toEqual([]);
    expect(await errors(inMine, '@portal/core')).toEqual([]);
  });

  it('a feature never imports app/', async () => {
    const app = firstSource(`${WEB}/app`);
    expect(await errors(inMine, relativeSpecifier(inMine, app))).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*Features do not import app/),
    ]);
  });

  it('lib/ and components/ import no feature and no app/', async () => {
    const inLib = `${WEB}/lib/lint-probe.ts`;
    const inComponents = `${WEB}/components/ui/lint-probe.tsx`;
    for (const from of [inLib, inComponents]) {
      for (const to of [otherFile, firstSource(`${WEB}/app`)]) {
        expect(await errors(from, relativeSpecifier(from, to))).toEqual([
          expect.stringMatching(/^import-x\/no-restricted-paths: .*lib\/ and components\/ are shared/),
        ]);
      }
    }
    expect(await errors(inComponents, '@/lib/api')).toEqual([]);
  });

  it('the web never imports the server or the simulator', async () => {
    const inLib = `${WEB}/lib/lint-probe.ts`;
    expect(await errors(inLib, relativeSpecifier(inLib, `${SERVER}/app.ts`))).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*over HTTP only/),
    ]);
    expect(await errors(inLib, relativeSpecifier(inLib, firstSource('apps/simulator/src')))).toEqual([
      expect.stringContaining(ZONE),
    ]);
    // The package name resolves to apps/simulator/src as well (and the name itself is refused).
    expect(await errors(inLib, '@portal/simulator')).toEqual(
      expect.arrayContaining([expect.stringContaining(ZONE), expect.stringContaining('no-restricted-imports')]),
    );
  });

  it('no Node built-in, with or without the node: prefix', async () => {
    const inFeature = `${WEB}/features/${mine}/hooks/lint-probe.ts`;
    expect(await errors(inFeature, 'node:fs')).toEqual([expect.stringContaining('import-x/no-nodejs-modules')]);
    expect(await errors(inFeature, 'path')).toEqual([expect.stringContaining('import-x/no-nodejs-modules')]);
    expect(await errors(inFeature, 'react')).toEqual([]);
  });
});

describe('packages/core', () => {
  it('imports nothing of apps/*', async () => {
    const inCore = 'packages/core/src/domain/lint-probe.ts';
    expect(await errors(inCore, relativeSpecifier(inCore, `${SERVER}/clock.ts`))).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*packages\/core imports nothing of ours/),
    ]);
    expect(await errors(inCore, relativeSpecifier(inCore, firstSource(`${WEB}/lib`)))).toEqual([
      expect.stringContaining(ZONE),
    ]);
    expect(await errors(inCore, relativeSpecifier(inCore, 'packages/core/src/index.ts'))).toEqual([]);
  });
});

describe('apps/server/src', () => {
  const modules = dirs(`${SERVER}/modules`);
  const repositoryOf = (mod: string) => `${SERVER}/modules/${mod}/${mod}.repository.ts`;
  const serviceOf = (mod: string) => `${SERVER}/modules/${mod}/${mod}.service.ts`;
  const withRepository = modules.filter((m) => existsSync(join(ROOT, repositoryOf(m))));
  // The gate (modules/access) imports no module at all: lint/role-comparisons.test.ts proves its zone.
  const [mine, other] = withRepository.filter((m) => m !== 'access');

  it('has at least two modules with a repository', () => {
    expect(withRepository.length).toBeGreaterThanOrEqual(2);
  });

  it('ingest/ calls services, never a repository', async () => {
    const inIngest = `${SERVER}/ingest/lint-probe.ts`;
    expect(await errors(inIngest, relativeSpecifier(inIngest, repositoryOf(mine!)))).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*Ingest handlers call services/),
    ]);
    expect(await errors(inIngest, relativeSpecifier(inIngest, serviceOf(mine!)))).toEqual([]);
  });

  it("a module never imports another module's repository; its own, and the other's service, are fine", async () => {
    const inMine = `${SERVER}/modules/${mine}/lint-probe.service.ts`;
    expect(await errors(inMine, relativeSpecifier(inMine, repositoryOf(other!)))).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*never reaches into another module's repository/),
    ]);
    expect(await errors(inMine, relativeSpecifier(inMine, repositoryOf(mine!)))).toEqual([]);
    expect(await errors(inMine, relativeSpecifier(inMine, serviceOf(other!)))).toEqual([]);
  });

  it('a module never imports ingest/: the transports call modules', async () => {
    const inMine = `${SERVER}/modules/${mine}/lint-probe.service.ts`;
    const transport = firstSource(`${SERVER}/ingest`);
    expect(await errors(inMine, relativeSpecifier(inMine, transport))).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*Modules never import ingest/),
    ]);
    const inIngest = `${SERVER}/ingest/lint-probe.ts`;
    expect(await errors(inIngest, relativeSpecifier(inIngest, serviceOf(mine!)))).toEqual([]);
    expect(await errors(inIngest, relativeSpecifier(inIngest, transport))).toEqual([]);
  });

  it('plugins import no module but the guards of access and auth, and no transport', async () => {
    const inPlugins = `${SERVER}/plugins/lint-probe.ts`;
    const feature = modules.find((m) => !['access', 'auth'].includes(m) && existsSync(join(ROOT, serviceOf(m))))!;
    const refused = /^import-x\/no-restricted-paths: .*Plugins hold framework code/;
    expect(await errors(inPlugins, relativeSpecifier(inPlugins, serviceOf(feature)))).toEqual([
      expect.stringMatching(refused),
    ]);
    // Access and auth, their repositories and routes aside.
    for (const guarded of ['access', 'auth']) {
      expect(await errors(inPlugins, relativeSpecifier(inPlugins, repositoryOf(guarded)))).toEqual([
        expect.stringMatching(refused),
      ]);
      expect(await errors(inPlugins, relativeSpecifier(inPlugins, serviceOf(guarded)))).toEqual([]);
    }
    expect(await errors(inPlugins, relativeSpecifier(inPlugins, `${SERVER}/modules/access/access.hooks.ts`))).toEqual(
      [],
    );
    // Another file of auth (the second factor) is no guard.
    expect(await errors(inPlugins, relativeSpecifier(inPlugins, `${SERVER}/modules/auth/mfa.service.ts`))).toEqual([
      expect.stringMatching(refused),
    ]);
    expect(await errors(inPlugins, relativeSpecifier(inPlugins, firstSource(`${SERVER}/ingest`)))).toEqual([
      expect.stringMatching(refused),
    ]);
    expect(await errors(inPlugins, relativeSpecifier(inPlugins, firstSource(`${SERVER}/plugins`)))).toEqual([]);
  });

  it('db/ imports nothing of modules (access included), ingest or plugins', async () => {
    const inDb = `${SERVER}/db/lint-probe.ts`;
    for (const higher of [
      serviceOf('access'),
      repositoryOf('access'),
      serviceOf(mine!),
      firstSource(`${SERVER}/ingest`),
      firstSource(`${SERVER}/plugins`),
    ]) {
      expect(await errors(inDb, relativeSpecifier(inDb, higher)), higher).toEqual([
        expect.stringMatching(/^import-x\/no-restricted-paths: .*db\/ is the lowest layer/),
      ]);
    }
    expect(await errors(inDb, relativeSpecifier(inDb, firstSource(`${SERVER}/db`)))).toEqual([]);
    expect(await errors(inDb, relativeSpecifier(inDb, `${SERVER}/errors.ts`))).toEqual([]);
  });

  it('nothing under ingest/, modules/, plugins/ or db/ imports the composition (app, portal, main, cli)', async () => {
    const composition = [`${SERVER}/app.ts`, `${SERVER}/portal.ts`, `${SERVER}/main.ts`, firstSource(`${SERVER}/cli`)];
    for (const from of [
      `${SERVER}/ingest/lint-probe.ts`,
      `${SERVER}/modules/${mine}/lint-probe.service.ts`,
      `${SERVER}/plugins/lint-probe.ts`,
      `${SERVER}/db/lint-probe.ts`,
    ]) {
      for (const to of composition) {
        expect(await errors(from, relativeSpecifier(from, to)), `${from} -> ${to}`).toEqual([
          expect.stringMatching(/^import-x\/no-restricted-paths: .*Only the composition/),
        ]);
      }
    }
    // The composition imports every layer.
    const inComposition = `${SERVER}/lint-probe.ts`;
    for (const layer of [firstSource(`${SERVER}/ingest`), serviceOf(mine!), firstSource(`${SERVER}/db`)]) {
      expect(await errors(inComposition, relativeSpecifier(inComposition, layer))).toEqual([]);
    }
  });

  it('routes call services, never a repository, even their own', async () => {
    const inRoutes = `${SERVER}/modules/${mine}/lint-probe.routes.ts`;
    expect(await errors(inRoutes, relativeSpecifier(inRoutes, repositoryOf(mine!)))).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*Routes call services/),
    ]);
    expect(await errors(inRoutes, relativeSpecifier(inRoutes, serviceOf(mine!)))).toEqual([]);
  });
});

describe('import cycles', () => {
  // packages/core/src/index.ts re-exports the domain files: one of them importing the index back closes a cycle.
  const index = 'packages/core/src/index.ts';
  const reexported = /export \* from '\.\/([^']+)'/.exec(readFileSync(join(ROOT, index), 'utf8'))![1]!;
  const member = `packages/core/src/${reexported}.ts`;

  it('a file importing what imports it is refused', async () => {
    expect(await errors(member, relativeSpecifier(member, index))).toEqual([
      expect.stringContaining('import-x/no-cycle'),
    ]);
  });

  it('the same import from a file the index does not reach is fine', async () => {
    const outside = 'packages/core/src/domain/lint-probe.ts';
    expect(await errors(outside, relativeSpecifier(outside, index))).toEqual([]);
  });

  describe('in apps/server/src, on real files', () => {
    // A transport file and a file of its own folder it imports: `importer` -> `imported`, found at run time.
    const folder = `${SERVER}/ingest`;
    const pair = readdirSync(join(ROOT, folder))
      .filter((name) => name.endsWith('.ts'))
      .sort()
      .flatMap((name) => {
        const text = readFileSync(join(ROOT, folder, name), 'utf8');
        const sibling = /from '\.\/([^']+)'/.exec(text)?.[1];
        return sibling ? [{ importer: `${folder}/${name}`, imported: `${folder}/${sibling}.ts` }] : [];
      })[0]!;
    const back = (file: string) =>
      `import * as back from '${relativeSpecifier(pair.imported, file)}';\nexport const cycle = back;\n`;

    it('finds a file that imports another of its folder', () => {
      expect(existsSync(join(ROOT, pair.imported))).toBe(true);
    });

    it('the imported file importing its importer back is a cycle', async () => {
      expect(await errorsWithAdded(pair.imported, back(pair.importer))).toEqual([
        expect.stringContaining('import-x/no-cycle'),
      ]);
    });

    it('the imported file as it is, or importing a file that does not import it, is fine', async () => {
      expect(await errorsWithAdded(pair.imported, '')).toEqual([]);
      expect(await errorsWithAdded(pair.imported, back(`${SERVER}/errors.ts`))).toEqual([]);
    });
  });
});
