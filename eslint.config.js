// One lint setup for the whole repository. Beyond the recommended rules it enforces the
// dependency direction of DESIGN.md section 2 and STYLE.md: core imports no framework, web
// features do not import each other, only repositories (and the database layer) hold SQL.
import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const listDirs = (path) =>
  existsSync(path)
    ? readdirSync(path, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];

const webFeatures = listDirs('apps/web/src/features');
const serverModules = listDirs('apps/server/src/modules');

const featureBoundaries = webFeatures.map((feature) => ({
  files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: webFeatures.filter((f) => f !== feature).flatMap((f) => [`**/features/${f}`, `**/features/${f}/**`]),
            message: 'Features never import each other: compose them in app/.',
          },
          { group: ['**/app/**'], message: 'Features do not import app/; app/ composes features.' },
        ],
      },
    ],
  },
}));

const moduleBoundaries = serverModules.flatMap((mod) => {
  const otherRepositories = {
    group: serverModules.filter((m) => m !== mod).map((m) => `**/${m}/*.repository*`),
    message: "A module never reaches into another module's repository: call its service.",
  };
  const anyRepository = {
    group: ['**/*.repository*'],
    message: 'Routes call services, never repositories (STYLE.md 4).',
  };
  return [
    {
      files: [`apps/server/src/modules/${mod}/**/*.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns: [otherRepositories] }] },
    },
    {
      files: [`apps/server/src/modules/${mod}/**/*.routes.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns: [otherRepositories, anyRepository] }] },
    },
  ];
});

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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@portal/server', '**/apps/server/**', 'node:*'],
              message: 'The web app talks to the server over HTTP only.',
            },
          ],
        },
      ],
    },
  },
  ...featureBoundaries,
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.repository.ts', 'apps/server/src/db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='query'][arguments.0.type=/Literal|TemplateLiteral/]",
          message: 'SQL lives only in repositories (STYLE.md 5).',
        },
      ],
    },
  },
  ...moduleBoundaries,
);
