// One lint setup for the whole repository. Beyond the recommended rules it enforces the
// dependency direction of DESIGN.md section 2 and STYLE.md: core imports no framework, web
// features do not import each other, only repositories (and the database layer) hold SQL.
// Boundaries are checked on the path an import resolves to (STYLE.md 13), so `../../other-feature`
// and `@/features/x` are caught alike; lint/boundaries.test.ts proves each rule with a wrong import.
import { readdirSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const root = dirname(fileURLToPath(import.meta.url));

const listDirs = (path) =>
  existsSync(`${root}/${path}`)
    ? readdirSync(`${root}/${path}`, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];

const webFeatures = listDirs('apps/web/src/features');
const serverModules = listDirs('apps/server/src/modules');

const WEB = 'apps/web/src';
const SERVER = 'apps/server/src';

/** import-x/no-restricted-paths zones: `target` may not import what resolves into `from`. */
const zones = [
  ...webFeatures.map((feature) => ({
    target: `${WEB}/features/${feature}`,
    from: `${WEB}/features`,
    except: [`./${feature}`],
    message: 'Features never import each other: compose them in app/.',
  })),
  {
    target: `${WEB}/features`,
    from: `${WEB}/app`,
    message: 'Features do not import app/; app/ composes features.',
  },
  {
    target: [`${WEB}/lib`, `${WEB}/components`],
    from: [`${WEB}/features`, `${WEB}/app`],
    message: 'lib/ and components/ are shared by every feature: they import no feature and no app/.',
  },
  {
    target: 'apps/web',
    from: ['apps/server', 'apps/simulator'],
    message: 'The web app talks to the server over HTTP only; shared code lives in packages/core.',
  },
  {
    target: 'packages/core',
    from: ['apps', 'e2e', 'bench'],
    message: 'packages/core imports nothing of ours (DESIGN.md section 2).',
  },
  {
    target: `${SERVER}/ingest`,
    from: `${root}/${SERVER}/modules/**/*.repository.ts`,
    message: 'Ingest handlers call services, never repositories (STYLE.md 3).',
  },
  // The layers of apps/server/src (issue 33), highest first: the composition (app.ts, portal.ts,
  // main.ts, seed.ts, cli/) -> the transports (ingest/) -> modules/ -> db/; plugins/ hold framework
  // code beside them. Nothing lower imports anything higher.
  {
    target: [`${SERVER}/ingest`, `${SERVER}/modules`, `${SERVER}/plugins`, `${SERVER}/db`],
    from: [`${SERVER}/app.ts`, `${SERVER}/portal.ts`, `${SERVER}/main.ts`, `${SERVER}/seed.ts`, `${SERVER}/cli`],
    message: 'Only the composition (main.ts, portal.ts, app.ts, cli/) wires the layers: nothing imports it.',
  },
  {
    target: `${SERVER}/modules`,
    from: `${SERVER}/ingest`,
    message: 'Modules never import ingest/: the transports call modules, not the other way round.',
  },
  {
    target: `${SERVER}/plugins`,
    from: `${root}/${SERVER}/modules/**`,
    // The guards (access.hooks), the gate they ask (access.service) and the session the auth plugin resolves (auth.service).
    except: [`${root}/${SERVER}/modules/{access/access.hooks,access/access.service,auth/auth.service}.ts`],
    message: 'Plugins hold framework code: they import no module but the guards of access and auth.',
  },
  {
    target: `${SERVER}/plugins`,
    from: `${SERVER}/ingest`,
    message: 'Plugins hold framework code: they import no transport (ingest/).',
  },
  {
    target: `${SERVER}/db`,
    from: [`${SERVER}/modules`, `${SERVER}/ingest`, `${SERVER}/plugins`],
    message: 'db/ is the lowest layer: it imports nothing of modules (access included), ingest or plugins.',
  },
  ...serverModules.map((mod) => ({
    target: `${SERVER}/modules/${mod}`,
    from: `${root}/${SERVER}/modules/!(${mod})/**/*.repository.ts`,
    message: "A module never reaches into another module's repository: call its service.",
  })),
  {
    target: `${root}/${SERVER}/modules/**/*.routes.ts`,
    from: `${root}/${SERVER}/modules/**/*.repository.ts`,
    message: 'Routes call services, never repositories (STYLE.md 4).',
  },
];

/** no-restricted-syntax: a `.query(...)` with SQL text outside repositories and src/db. */
const SQL_ONLY_IN_REPOSITORIES = {
  selector: "CallExpression[callee.property.name='query'][arguments.0.type=/Literal|TemplateLiteral/]",
  message: 'SQL lives only in repositories (STYLE.md 5).',
};

// The four role names of core's DEVICE_ROLES (packages/core/src/domain/roles.ts; group levels use
// the same four). lint/role-comparisons.test.ts checks this list against core's.
const ROLE_NAMES = ['ADMIN', 'USER', 'OPERATOR', 'VIEW'];
const roleLiteral = `/^(${ROLE_NAMES.join('|')})$/`;

/**
 * no-restricted-syntax: a comparison (===, !==, ==, !=) with a role name as a literal on either
 * side. Read from the syntax alone (no type information); SQL text is a string, not a comparison.
 */
const ROLE_COMPARISON = {
  selector: `BinaryExpression[operator=/^[!=]==?$/]:matches([left.type='Literal'][left.value=${roleLiteral}], [right.type='Literal'][right.value=${roleLiteral}])`,
  message:
    "Role names are not compared by hand outside modules/access: ask the access gate (authorize, authorizeGroup), core's can()/groupCan(), or a named rule of core (STYLE.md 1 and 11).",
};

/**
 * The access gate is the lowest layer above the database (transports -> modules -> access -> db):
 * it imports only src/db, the clock, the errors and the guard marker of plugins/route-security.
 */
const ACCESS_IMPORTS_ZONE = {
  target: `${SERVER}/modules/access`,
  from: `${root}/${SERVER}/**`,
  // One glob (a glob `from` takes glob exceptions only). Another module's repository is left to the
  // module zone above, which refuses it already: one error for one wrong import.
  except: [
    `${root}/${SERVER}/{modules/access/**,modules/*/*.repository.ts,db/**,clock.ts,errors.ts,plugins/route-security.ts}`,
  ],
  message:
    'modules/access imports no other module, and nothing above it but src/db (transports -> modules -> access -> db).',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/*.d.ts', 'apps/web/public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      // import-x/no-cycle follows (parses) only files with these extensions, with this parser.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Resolves as TypeScript does: workspace packages (@portal/core), the web's `@/` alias, `.js`
      // specifiers of `.ts` files; each file with the tsconfig that includes it.
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [
            `${root}/apps/*/tsconfig.json`,
            `${root}/packages/core/tsconfig.json`,
            `${root}/packages/core/test/tsconfig.json`,
            `${root}/e2e/tsconfig.json`,
            `${root}/bench/tsconfig.json`,
          ],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
    },
  },
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/core/src/**/*.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'react',
                'react-*',
                'react/*',
                'fastify',
                'fastify-*',
                '@fastify/*',
                'node:*',
                'pg',
                '@electric-sql/*',
                'primereact*',
                '@tanstack/*',
                '@portal/*',
              ],
              message: 'packages/core imports nothing of ours and no framework (DESIGN.md section 2).',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'core runs everywhere' },
        { name: 'document', message: 'core runs everywhere' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Take `now` as an argument (STYLE.md 6).',
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'Take a random source as an argument.',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The package names, for the bare specifiers that resolve to nothing (no main file).
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@portal/server', '@portal/server/*', '@portal/simulator', '@portal/simulator/*'],
              message: 'The web app talks to the server over HTTP only.',
            },
          ],
        },
      ],
      'import-x/no-nodejs-modules': ['error'],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.repository.ts', 'apps/server/src/db/**'],
    rules: {
      'no-restricted-syntax': ['error', SQL_ONLY_IN_REPOSITORIES],
    },
  },
  // Role names are compared only in the access gate (issue 33). These blocks restate the server's
  // no-restricted-syntax options for the files they cover (a later block replaces them).
  {
    files: [`${SERVER}/modules/**/*.ts`],
    ignores: [`${SERVER}/modules/access/**`, `${SERVER}/modules/**/*.repository.ts`],
    rules: { 'no-restricted-syntax': ['error', SQL_ONLY_IN_REPOSITORIES, ROLE_COMPARISON] },
  },
  {
    files: [`${SERVER}/modules/**/*.repository.ts`],
    ignores: [`${SERVER}/modules/access/**`],
    rules: { 'no-restricted-syntax': ['error', ROLE_COMPARISON] },
  },
  // The gate imports no module: the zones above, and the access zone, for its files only.
  {
    files: [`${SERVER}/modules/access/**/*.ts`],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...zones, ACCESS_IMPORTS_ZONE] }] },
  },
);
