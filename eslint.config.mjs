import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
  {
    // Module Federation boundaries (README, "@console/shared"): the console's bundles route through the
    // shared router singleton and import @console/shared by entry point; an entry of shared imports
    // another only by package name (shared/test/entries.test.ts checks the relative side).
    files: ['shell/**/*.{ts,tsx}', 'mfe-*/**/*.{ts,tsx}', 'shared/src/**/*.{ts,tsx}', 'e2e/**/*.{ts,tsx}'],
    ignores: ['shared/src/router/**'],
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
          ],
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
