// The shell built as ONE ordinary bundle, without Module Federation, for bench/shell-cost.ts: the same
// entry, loaders, production mode, chunk names and precompression as the real shell (shared/mf
// appConfig), with the ModuleFederationPlugin dropped. It answers "what does federation itself cost
// the login page": the bench compares the bytes and requests of both builds.
//
// Build: `pnpm --filter ./bench build:plain` (shell-cost.ts builds it when it is missing or older than
// the shell's own build). Output: bench/dist/plain-shell (gitignored).
const path = require('node:path');

const shellDir = path.resolve(__dirname, '..', '..', 'shell');
const shellConfig = require(path.join(shellDir, 'webpack.config.cjs'));
const { ModuleFederationPlugin } = require(
  require.resolve('@module-federation/enhanced/webpack', { paths: [shellDir] }),
);

module.exports = (env, argv) => {
  const config = shellConfig(env, argv);
  const plugins = config.plugins.filter((p) => !(p instanceof ModuleFederationPlugin));
  if (plugins.length !== config.plugins.length - 1) throw new Error('expected one ModuleFederationPlugin');
  return {
    ...config,
    output: { ...config.output, path: path.resolve(__dirname, '..', 'dist', 'plain-shell'), uniqueName: 'shell_plain' },
    resolve: {
      ...config.resolve,
      alias: {
        ...config.resolve?.alias,
        // The only federation import of the shell (src/remotes.ts): remotes are out of scope here; the
        // login page never loads one.
        '@module-federation/enhanced/runtime$': path.join(__dirname, 'mf-runtime-stub.ts'),
      },
    },
    plugins,
  };
};
