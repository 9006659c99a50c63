const { appConfig } = require('@console/shared/mf');

const base = appConfig({ name: 'mfe_engagement', dir: __dirname, devPort: 3001 });

/**
 * The template designer's stylesheets (GrapesJS and its icon font) are imported as strings
 * (`?inline`) and put in the page by the designer when it mounts, so they load with the designer's
 * own chunk instead of joining the app's one stylesheet (every engagement page loads that).
 *
 * The icon font (Font Awesome 4.7, from npm) travels inside that stylesheet as a data: URL, in the
 * one format Chromium, Firefox and Safari pick first (WOFF2): the shell's CSP allows fonts from
 * 'self' and data: only, and a remote's files are on another origin. The older formats the
 * stylesheet also names are emitted as files but never requested.
 */
module.exports = (env, argv) => {
  const config = base(env, argv);
  for (const rule of config.module.rules) {
    if (String(rule.test) === String(/\.css$/)) rule.resourceQuery = { not: [/inline/] };
  }
  config.module.rules.push(
    {
      test: /\.css$/,
      resourceQuery: /inline/,
      use: [{ loader: 'css-loader', options: { exportType: 'string', importLoaders: 0 } }],
    },
    { test: /\.woff2$/, include: /font-awesome/, type: 'asset/inline' },
    {
      test: /\.(woff|ttf|eot|svg)$/,
      include: /font-awesome/,
      type: 'asset/resource',
      generator: { filename: 'fonts/[name].[contenthash:8][ext]' },
    },
  );
  return config;
};
