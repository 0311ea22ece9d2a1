/**
 * The access gate's lint rules (eslint.config.js, issue 33), each shown deliberately wrong code
 * written into a real path of the zone it guards: a role name compared by hand in a server module
 * outside modules/access fails, and modules/access imports no other module. The same code in
 * the gate, and the legal form beside it, pass clean. Paths name real modules found at run time.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { DEVICE_ROLES } from '@portal/core';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = 'apps/server/src';
const ACCESS = `${SERVER}/modules/access`;

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** Lints `code` as if it were the file at `filePath`; every error, as `rule: message`. */
async function errors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

/** A module exporting `expression` (with `role` and `db` in scope, and used). */
const probe = (expression: string) =>
  `declare const role: string;\ndeclare const db: { query(sql: string): unknown };\nexport const probe = [role, db, ${expression}];\n`;

/** `import * as m from '<specifier>'`, used. */
const importing = (specifier: string) => `import * as m from '${specifier}';\nexport const used = m;\n`;

/** The specifier a file at `from` writes to reach `to` (relative, no extension). */
function relativeSpecifier(from: string, to: string): string {
  const path = relative(dirname(join(ROOT, from)), join(ROOT, to)).replace(/\.tsx?$/, '');
  return path.startsWith('.') ? path : `./${path}`;
}

const ROLE_RULE = /^no-restricted-syntax: Role names are not compared by hand outside modules\/access/;
const SQL_RULE = /^no-restricted-syntax: SQL lives only in repositories/;
const ACCESS_ZONE = /^import-x\/no-restricted-paths: .*modules\/access imports no other module/;

const modules = readdirSync(join(ROOT, `${SERVER}/modules`), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'access')
  .map((d) => d.name)
  .sort();
const serviceOf = (mod: string) => `${SERVER}/modules/${mod}/${mod}.service.ts`;
const repositoryOf = (mod: string) => `${SERVER}/modules/${mod}/${mod}.repository.ts`;
const withService = modules.filter((m) => existsSync(join(ROOT, serviceOf(m))));
const withRepository = modules.filter((m) => existsSync(join(ROOT, repositoryOf(m))));
const mod = withService[0]!;
const inService = `${SERVER}/modules/${mod}/lint-probe.service.ts`;
const inRepository = `${SERVER}/modules/${withRepository[0]!}/lint-probe.repository.ts`;
const inAccess = `${ACCESS}/lint-probe.service.ts`;

describe('role names compared by hand', () => {
  it('finds modules besides access to check', () => {
    expect(withService.length).toBeGreaterThan(0);
    expect(withRepository.length).toBeGreaterThan(0);
  });

  it.each(DEVICE_ROLES)('%s compared in a module, either side, any equality operator, is refused', async (name) => {
    for (const expression of [
      `role === '${name}'`,
      `role !== '${name}'`,
      `role == '${name}'`,
      `role != '${name}'`,
      `'${name}' === role`,
    ]) {
      expect(await errors(inService, probe(expression))).toEqual([expect.stringMatching(ROLE_RULE)]);
    }
  });

  it('a repository is held to it too', async () => {
    expect(await errors(inRepository, probe(`role === 'ADMIN'`))).toEqual([expect.stringMatching(ROLE_RULE)]);
  });

  it('the access gate may compare', async () => {
    for (const name of DEVICE_ROLES) expect(await errors(inAccess, probe(`role === '${name}'`))).toEqual([]);
  });

  it('the legal forms pass clean: a capability, a role passed as a value, other literals, SQL text', async () => {
    const can = `import { can } from '@portal/core';\nexport const probe = (role: string) => can(role, 'editUsers');\n`;
    expect(await errors(inService, can)).toEqual([]);
    expect(await errors(inService, probe(`[role, 'ADMIN']`))).toEqual([]);
    expect(await errors(inService, probe(`role === 'INACTIVE' || role === 'admin'`))).toEqual([]);
    const sql = probe(`"SELECT 1 FROM device_users WHERE permission = 'ADMIN'"`);
    expect(await errors(inRepository, sql)).toEqual([]);
  });

  it("keeps the server's SQL rule in the same files (a later block replaces a rule's options)", async () => {
    expect(await errors(inService, probe(`db.query('SELECT 1')`))).toEqual([expect.stringMatching(SQL_RULE)]);
    expect(await errors(inService, probe(`[db.query('SELECT 1'), role === 'VIEW']`))).toEqual([
      expect.stringMatching(SQL_RULE),
      expect.stringMatching(ROLE_RULE),
    ]);
    expect(await errors(inAccess, probe(`db.query('SELECT 1')`))).toEqual([expect.stringMatching(SQL_RULE)]);
    expect(await errors(inRepository, probe(`db.query('SELECT 1')`))).toEqual([]);
  });
});

describe('modules/access imports no other module (transports -> modules -> access -> db)', () => {
  it.each([
    ['a service of another module', serviceOf(mod)],
    ['plugins/auth.ts (the session plugin)', `${SERVER}/plugins/auth.ts`],
    // (the app is the composition zone's refusal: boundaries.test.ts)
    ['a server file outside db (public-addresses.ts)', `${SERVER}/public-addresses.ts`],
  ])('refuses %s', async (_what, target) => {
    expect(await errors(inAccess, importing(relativeSpecifier(inAccess, target)))).toEqual([
      expect.stringMatching(ACCESS_ZONE),
    ]);
  });

  it("another module's repository is the shared module zone's refusal (one error)", async () => {
    expect(await errors(inAccess, importing(relativeSpecifier(inAccess, repositoryOf(withRepository[0]!))))).toEqual([
      expect.stringMatching(/never reaches into another module's repository/),
    ]);
  });

  it('allows its own files, src/db, the clock, the errors, the guard marker and core', async () => {
    for (const target of [
      `${ACCESS}/access.repository.ts`,
      `${SERVER}/db/db.ts`,
      `${SERVER}/clock.ts`,
      `${SERVER}/errors.ts`,
      `${SERVER}/plugins/route-security.ts`,
    ]) {
      expect(await errors(inAccess, importing(relativeSpecifier(inAccess, target)))).toEqual([]);
    }
    expect(await errors(inAccess, importing('@portal/core'))).toEqual([]);
  });

  it('a module may import the gate', async () => {
    expect(await errors(inService, importing(relativeSpecifier(inService, `${ACCESS}/access.service.ts`)))).toEqual([]);
  });
});
