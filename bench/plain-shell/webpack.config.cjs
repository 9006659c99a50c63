// The shell built as ONE ordinary bundle, without Module Federation, for bench/shell-cost.ts: the same
// entry, loaders, production mode, chunk names and precompression as the real shell (shared/mf
// appConfig), with the shell's federation (src/federation/) replaced by a stub (mf-runtime-stub.ts). It answers "what does
// federation itself cost the login page": the bench compares the bytes and requests of both builds.
//
// Build: `pnpm --filter ./bench build:plain` (shell-cost.ts builds it when it is missing or older than
// the shell's own build). Output: bench/dist/plain-shell (gitignored).
const path = require('node:path');

const shellDir = path.resolve(__dirname, '..', '..', 'shell');
const shellConfig = require(path.join(shellDir, 'webpack.config.cjs'));

module.exports = (env, argv) => {
  const config = shellConfig(env, argv);
  const federated = config.plugins.some((p) => p?.constructor?.name === 'ModuleFederationPlugin');
  if (federated) throw new Error('the shell is built without the federation plugin (shared/mf appConfig)');
  return {
    ...config,
    output: { ...config.output, path: path.resolve(__dirname, '..', 'dist', 'plain-shell'), uniqueName: 'shell_plain' },
    plugins: [
      ...config.plugins,
      // The shell's federation (src/federation/: the runtime and the modules it provides to remotes,
      // which a federated build keeps whole) is left out; the login page never loads a remote.
      {
        apply(compiler) {
          const stub = path.join(__dirname, 'mf-runtime-stub.ts');
          new compiler.webpack.NormalModuleReplacementPlugin(/^\.\/federation$/, stub).apply(compiler);
        },
      },
    ],
  };
};
