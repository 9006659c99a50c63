import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import fs from 'node:fs';

/**
 * The gateway's shared infrastructure (these folders of gateway/src, and its top-level files but the
 * entry files below): every area may import it, and it imports no area. The one exception is an
 * area's schema.ts, a leaf that db/schema.ts gathers.
 */
const GATEWAY_INFRASTRUCTURE = ['db', 'jobs', 'lib', 'mail'];
/**
 * The composition root and the entry points: they may import every area (through its index.ts), and
 * nothing imports them. Every other top-level file of gateway/src (config, deps, area, errors, …) is
 * infrastructure.
 */
const GATEWAY_ENTRIES = ['cli'];
const GATEWAY_ENTRY_FILES = ['app', 'composition', 'main', 'seed', 'workers', 'off-loop-worker'];
/**
 * The gateway's product areas: every other folder of gateway/src, read at lint time, so a new area is
 * walled the day its folder appears. An area's index.ts is its only entrance (its schema.ts too, for
 * other schema files; its off-loop-tasks.ts for the off-loop pool's threads, which load no routes).
 */
const GATEWAY_AREAS = fs
  .readdirSync(new URL('./gateway/src/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !GATEWAY_INFRASTRUCTURE.includes(d.name) && !GATEWAY_ENTRIES.includes(d.name))
  .map((d) => d.name)
  .sort();
const anyOf = (names) => `(${names.join('|')})`;
/** Imports of a top-level entry file or folder of gateway/src (`../composition`, `../../cli/reset`; `./app` from the top). */
const entryImport = (from) => `^${from}(${anyOf(GATEWAY_ENTRY_FILES)}|${anyOf(GATEWAY_ENTRIES)}/.*)$`;
/** Deep imports into another area: anything but its index.ts. */
const deepInto = (areas) =>
  areas.flatMap((other) => [`**/${other}/*`, `!**/${other}/index`, `!**/${other}/off-loop-tasks`]);

/** One no-restricted-imports block per part of the system, each with its forbidden paths (globs or regexes). */
function boundaries(parts) {
  return parts.map(({ files, ignores, forbidden, forbiddenRegex = [] }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@console/shared', message: 'Import from an entry point: @console/shared/session, /ui, /lists, …' },
          ],
          patterns: [
            {
              group: ['react-router', 'react-router-dom', 'react-router/*', 'react-router-dom/*'],
              message: 'Import routing from @console/shared/router (one router singleton for every bundle).',
            },
            ...(forbidden.length
              ? [
                  {
                    group: forbidden,
                    message:
                      "Crosses a boundary: a remote uses only @console/shared entry points, the shell no remote, shared no app, a gateway area another area's index.ts only.",
                  },
                ]
              : []),
            ...forbiddenRegex.map(({ regex, message }) => ({ regex, message })),
          ],
        },
      ],
    },
  }));
}

// Tests set up state across areas (a tenant, a user, a plan) and may reach into any of them.
const GATEWAY_TESTS = ['gateway/src/**/*.test.ts'];
const entryRule = (from) => ({
  regex: entryImport(from),
  message:
    'The composition root and the entry points (app, composition, main, seed, workers, cli) are imported by nothing.',
});

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.data/**',
      '.tmp/**',
      'gateway/drizzle/**',
      'e2e/artifacts/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // floating-ui hands out callback refs (refs.setFloating) that this compiler rule misreads.
      'react-hooks/refs': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Module Federation boundaries (shared/README.md): every bundle imports
  // @console/shared by entry point and routes through the shared router singleton; a remote never
  // imports another remote or the shell, the shell never a remote, shared no app. (An entry of shared
  // imports another only by package name: shared/test/entries.test.ts checks the relative side.)
  ...boundaries([
    { files: ['mfe-*/**/*.{ts,tsx}'], forbidden: ['**/shell/**', '**/mfe-*/**', '**/gateway/**', '**/shared/src/**'] },
    // An applet is a remote like the others (the shell only knows it at run time).
    {
      files: ['applets/**/*.{ts,tsx}'],
      forbidden: ['**/shell/**', '**/mfe-*/**', '**/applets/**', '**/gateway/**', '**/shared/src/**'],
    },
    {
      files: ['shell/**/*.{ts,tsx}'],
      forbidden: ['**/mfe-*/**', '**/applets/**', '**/gateway/**', '**/shared/src/**'],
    },
    {
      files: ['shared/src/**/*.{ts,tsx}'],
      ignores: ['shared/src/router/**'],
      forbidden: ['**/shell/**', '**/mfe-*/**', '**/gateway/**'],
    },
    { files: ['e2e/**/*.{ts,tsx}'], forbidden: [] },
    // Gateway areas (gateway/README.md, "Layout"): an area uses another only through its index.ts, and
    // never the composition root.
    ...GATEWAY_AREAS.map((area) => ({
      files: [`gateway/src/${area}/**/*.ts`],
      ignores: GATEWAY_TESTS,
      forbidden: deepInto(GATEWAY_AREAS.filter((other) => other !== area)),
      forbiddenRegex: [entryRule('(\\.\\./)+')],
    })),
    // The gateway's infrastructure imports no area (only an area's schema.ts: db/schema.ts gathers them).
    {
      files: [...GATEWAY_INFRASTRUCTURE.map((folder) => `gateway/src/${folder}/**/*.ts`), 'gateway/src/*.ts'],
      ignores: [...GATEWAY_TESTS, ...GATEWAY_ENTRY_FILES.map((name) => `gateway/src/${name}.ts`)],
      forbidden: [],
      forbiddenRegex: [
        {
          regex: `^(\\./|(\\.\\./)+)${anyOf(GATEWAY_AREAS)}(/(?!schema$).*)?$`,
          message:
            'Infrastructure (db, jobs, lib, mail, config, deps, …) imports no area: the area hands it what it needs.',
        },
        entryRule('(\\./|(\\.\\./)+)'),
      ],
    },
    // The composition root and the entry points use an area through its index.ts too.
    {
      files: [
        ...GATEWAY_ENTRIES.map((folder) => `gateway/src/${folder}/**/*.ts`),
        ...GATEWAY_ENTRY_FILES.map((name) => `gateway/src/${name}.ts`),
      ],
      ignores: GATEWAY_TESTS,
      forbidden: deepInto(GATEWAY_AREAS),
    },
    // Schema files are leaves (db/schema.ts gathers them without a cycle): drizzle-orm, the contracts'
    // types, the shared columns and other schema files only.
    {
      files: ['gateway/src/*/schema.ts', 'gateway/src/db/shared-schema.ts', 'gateway/src/db/columns.ts'],
      forbidden: [],
      forbiddenRegex: [
        {
          regex: '^(?!drizzle-orm(/|$)|\\.{1,2}/(.*/)?(schema|shared-schema|columns|contracts)$)',
          message: 'A schema file imports only drizzle-orm, ../contracts, db/columns and other schema files.',
        },
      ],
    },
  ]),
  // One storage interface (docs/storage.md): outside gateway/src/db/ nothing asks which engine runs.
  // db/storage.ts's operations are named for what they do; the engine's modules and checks stay in db/.
  {
    files: ['gateway/src/**/*.ts'],
    ignores: ['gateway/src/db/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/pglite-*', '**/db/engine', '@electric-sql/pglite', '@electric-sql/pglite/*'],
              message: "The engine stays in gateway/src/db/: use db/storage.ts's operations (docs/storage.md).",
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Identifier[name=/^(isPglite|pgliteClient|embeddedClient)$/]',
          message: "Product code never asks which engine runs: use db/storage.ts's operations (docs/storage.md).",
        },
        {
          selector: 'BinaryExpression > Literal[value=/^(pglite|postgres)$/]',
          message: "Product code never asks which engine runs: use db/storage.ts's operations (docs/storage.md).",
        },
      ],
    },
  },
  {
    files: ['**/*.{cjs,mjs,js}'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The widget SDK: a classic browser script served as is (ES2019, no build step).
    files: ['gateway/sdk/**/*.js'],
    languageOptions: { ecmaVersion: 2019, sourceType: 'script', globals: { ...globals.browser } },
  },
);
