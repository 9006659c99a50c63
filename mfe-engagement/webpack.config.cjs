const { appConfig } = require('@console/shared/mf');

const base = appConfig({ name: 'mfe_engagement', dir: __dirname, devPort: 3001 });

/**
 * The template designer's stylesheets (GrapesJS and its icon font) are imported as strings
 * (`?inline`) and put in the page by the designer when it mounts, so they load with the designer's
 * own chunk instead of joining the app's one stylesheet (every engagement page loads that).
 *
 * The icon font (Font Awesome 4.7, from npm) is imported as a data: URL of its WOFF2 file: the
 * shell's CSP allows fonts from 'self' and data: only, and a remote's files are on another origin.
 * The stylesheets' own url()s are left as written (`url: false`): the designer replaces Font
 * Awesome's @font-face, whose other formats Chromium would try (and the CSP refuse) even after the
 * WOFF2 has loaded.
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
      use: [{ loader: 'css-loader', options: { exportType: 'string', importLoaders: 0, url: false } }],
    },
    { test: /\.woff2$/, include: /font-awesome/, type: 'asset/inline' },
  );
  return config;
};
