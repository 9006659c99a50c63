// Webpack + Module Federation config for the shell and every remote: one place for the rules of
// ARCHITECTURE.md section 3 (singletons, loaded-first, asyncStartup, dts off, manifest on). The shell
// is an ordinary bundle that starts the federation runtime itself when it first needs a remote
// (shell/src/federation.ts, docs/frontend.md "The shell hosts through the runtime API").
const path = require('node:path');
const fs = require('node:fs');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const MinimizerPlugin = require('minimizer-webpack-plugin');
const zlib = require('node:zlib');

/**
 * Precompressed siblings of every built text asset (`x.js.br`, `x.js.gz`), made once at build time
 * so the servers (scripts/serve.mjs) send what a browser accepts without compressing per request.
 * Brotli at its best quality (slow to make, fast to read); files that would not shrink by a fifth
 * keep only their original.
 */
function precompress() {
  const test = /\.(js|css|html|json|svg)$/;
  return [
    new CompressionPlugin({ test, filename: '[path][base].gz', algorithm: 'gzip', compressionOptions: { level: 9 } }),
    new CompressionPlugin({
      test,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } },
    }),
  ];
}

/** Version of a package as installed for `fromDir` (workspace:* and catalog: are not ranges). */
function installedVersion(name, fromDir) {
  const file = require.resolve(`${name}/package.json`, { paths: [fromDir] });
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

/**
 * Every entry point of `@console/shared` (its package.json `exports` that are modules) is a singleton of
 * its own, so a screen loads only the entries it imports: the sign-in screen loads the session core, not
 * the UI kit's overlays, the grid or every contract. An entry imports another only by its package name
 * (never by a relative path), so each module has one home and the session store is evaluated once;
 * shared/test/entries.test.ts checks that rule.
 */
function sharedEntries(appDir, singleton) {
  const pkgFile = require.resolve('@console/shared/package.json', { paths: [appDir] });
  const { exports: map } = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
  return Object.fromEntries(
    Object.entries(map)
      .filter(([, file]) => /\.tsx?$/.test(file))
      .map(([key]) => [`@console/shared/${key.slice(2)}`, singleton('@console/shared')]),
  );
}

/** The shared-deps map: every library with module state is a singleton. */
function sharedDeps(appDir) {
  const singleton = (name, from = appDir) => {
    const version = installedVersion(name, from);
    return { singleton: true, requiredVersion: `^${version}`, version };
  };
  const react = singleton('react');
  const reactDom = singleton('react-dom');
  const map = {
    react,
    'react/': react,
    'react-dom': reactDom,
    'react-dom/': reactDom,
    // react-router is not shared itself: every bundle routes through the `@console/shared/router`
    // singleton, which keeps only the router exports the console uses (see its comment).
    'react-hot-toast': singleton('react-hot-toast'),
    '@floating-ui/react': singleton('@floating-ui/react'),
    '@tanstack/react-query': singleton('@tanstack/react-query'),
    ...sharedEntries(appDir, singleton),
  };
  return map;
}

/**
 * What the shell provides to the remotes, as the runtime's `init` takes it (shell/src/federation.ts): the
 * versions of the shared-deps map, by key, compiled into the shell (`__CONSOLE_SHARED__`).
 */
function hostShared(appDir) {
  return Object.fromEntries(
    Object.entries(sharedDeps(appDir)).map(([key, { version, requiredVersion }]) => [
      key,
      { version, requiredVersion },
    ]),
  );
}

/** A remote exposes every `src/pages/<kebab>-page.tsx` as `./<Pascal>Page`. */
function pageExposes(dir) {
  const pages = path.join(dir, 'src', 'pages');
  if (!fs.existsSync(pages)) return {};
  const out = {};
  for (const file of fs.readdirSync(pages).sort()) {
    const m = /^([a-z0-9-]+-page)\.tsx$/.exec(file);
    if (!m) continue;
    const name = m[1]
      .split('-')
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join('');
    out[`./${name}`] = `./src/pages/${file}`;
  }
  return out;
}

/**
 * @param {{ name: string, dir: string, host?: boolean, devPort?: number, exposes?: Record<string, string> }} app
 * `exposes` replaces the page convention (an applet exposes `./Page`).
 */
function appConfig(app) {
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    const isHost = Boolean(app.host);
    return {
      mode: production ? 'production' : 'development',
      context: app.dir,
      entry: isHost ? { main: './src/index.ts' } : {},
      devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
      output: {
        path: path.join(app.dir, 'dist'),
        publicPath: isHost ? '/' : 'auto',
        uniqueName: app.name,
        // Entry files keep stable names (the MF runtime cannot template a hash there); they are served
        // no-cache, and every other chunk is content-hashed and immutable.
        filename: '[name].js',
        chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
        clean: true,
      },
      resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'] },
      module: {
        rules: [
          {
            test: /\.[cm]?tsx?$/,
            exclude: /node_modules/,
            use: {
              loader: 'swc-loader',
              options: {
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  transform: { react: { runtime: 'automatic', development: !production } },
                  target: 'es2022',
                },
              },
            },
          },
          {
            test: /\.css$/,
            use: [MiniCssExtractPlugin.loader, 'css-loader', 'postcss-loader'],
          },
        ],
      },
      plugins: [
        isHost
          ? // The shell: no federation plugin. Its sign-in screen loads no federation runtime; the runtime
            // and the share scope come with the first remote (shell/src/federation.ts).
            {
              apply(compiler) {
                const shared = JSON.stringify(hostShared(app.dir));
                new compiler.webpack.DefinePlugin({ __CONSOLE_SHARED__: shared }).apply(compiler);
              },
            }
          : new ModuleFederationPlugin({
              name: app.name,
              filename: 'remoteEntry.js',
              exposes: app.exposes ?? pageExposes(app.dir),
              remotes: {},
              shared: sharedDeps(app.dir),
              shareStrategy: 'loaded-first',
              manifest: true,
              dts: false,
              experiments: { asyncStartup: true, optimization: { target: 'web' } },
            }),
        new MiniCssExtractPlugin({
          filename: production ? '[name].[contenthash:8].css' : '[name].css',
          chunkFilename: production ? '[id].[contenthash:8].css' : '[id].css',
        }),
        ...(isHost
          ? [new HtmlWebpackPlugin({ template: './src/index.html', scriptLoading: 'defer', inject: 'body' })]
          : []),
        ...(production ? precompress() : []),
      ],
      optimization: {
        // swc's minifier instead of webpack's default (terser, two compress passes): about as small, in a
        // fraction of the time (bench/README.md, "Figures behind rules in the code").
        minimizer: [new MinimizerPlugin({ minify: { implementation: MinimizerPlugin.swcMinify, options: {} } })],
        ...(isHost ? {} : { runtimeChunk: false }),
        // One stylesheet per app instead of a copy per exposed page.
        splitChunks: {
          cacheGroups: { styles: { name: 'styles', type: 'css/mini-extract', chunks: 'all', enforce: true } },
        },
      },
      performance: { hints: false },
      devServer: {
        port: app.devPort,
        historyApiFallback: isHost,
        headers: { 'Access-Control-Allow-Origin': '*' },
      },
    };
  };
}

module.exports = { appConfig, sharedDeps, hostShared, pageExposes };
