/** Jest for the browser code: shared, shell and the remotes (jsdom, swc). The gateway and e2e use node:test. */
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } },
    module: { type: 'commonjs' },
  },
];
// Every module entry of @console/shared by its package name, also from inside shared itself (an entry
// imports another only by name, see shared/mf/index.cjs).
const sharedExports = require('./shared/package.json').exports;
const sharedEntries = Object.fromEntries(
  Object.entries(sharedExports)
    .filter(([, file]) => /\.tsx?$/.test(file))
    .map(([key, file]) => [`^@console/shared/${key.slice(2)}$`, `<rootDir>/../shared/${file.slice(2)}`]),
);
const project = (name) => ({
  displayName: name,
  rootDir: `<rootDir>/${name}`,
  testEnvironment: '<rootDir>/../jest/jsdom-env.cjs',
  testMatch: ['<rootDir>/src/**/*.test.ts?(x)', '<rootDir>/test/**/*.test.ts?(x)'],
  transform: { '^.+\\.(t|j)sx?$': swc, '^.+\\.m?js$': swc },
  // ky is ESM-only: let swc turn it into CommonJS for Jest.
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?(ky)(@|/))'],
  moduleNameMapper: { '\\.css$': '<rootDir>/../jest/style-stub.cjs', ...sharedEntries },
  setupFilesAfterEnv: ['<rootDir>/../jest/setup.ts'],
});
module.exports = {
  // Above the 5 s a single wait may take (jest/setup.ts), so a slow wait fails as itself, not as a timeout.
  testTimeout: 20_000,
  projects: ['shared', 'shell', 'mfe-engagement', 'mfe-onboarding', 'mfe-advertising', 'mfe-account', 'mfe-admin'].map(
    project,
  ),
};
