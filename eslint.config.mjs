import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** The gateway's product areas (gateway/src/<area>/index.ts is each one's only entrance). */
const GATEWAY_AREAS = ['auth', 'tenants', 'audience', 'onboarding', 'billing', 'health', 'jobs', 'templates'];

/** One no-restricted-imports block per part of the system, each with its forbidden relative paths. */
function boundaries(parts) {
  return parts.map(({ files, ignores, forbidden }) => ({
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
          ],
        },
      ],
    },
  }));
}

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
  // Module Federation boundaries (README, "@console/shared by entry point"): every bundle imports
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
    // Gateway areas (README, "Gateway areas"): an area uses another only through its index.ts.
    ...GATEWAY_AREAS.map((area) => ({
      files: [`gateway/src/${area}/**/*.ts`],
      // Tests set up state across areas (a tenant, a user, a plan) and may reach into any of them.
      ignores: ['gateway/src/**/*.test.ts'],
      forbidden: GATEWAY_AREAS.filter((other) => other !== area).flatMap((other) => [
        `**/${other}/*`,
        `!**/${other}/index`,
      ]),
    })),
  ]),
  // One storage interface (docs/storage.md): outside gateway/src/db/ nothing asks which engine runs.
  // db/storage.ts's operations are named for what they do; the engine's modules and checks stay in db/.
  {
    files: ['gateway/src/**/*.ts'],
    ignores: [
      'gateway/src/db/**',
      // The send pipeline being rebuilt (issue 44) still holds engine checks until that work lands.
      'gateway/src/campaigns/sender/**',
      'gateway/src/campaigns/jobs.ts',
    ],
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
