const { appConfig } = require('@console/shared/mf');

// An applet exposes one module, `./Page`, whose default export is its page (the applet's `module`).
module.exports = appConfig({
  name: 'applet_token_gate',
  dir: __dirname,
  devPort: 3006,
  exposes: { './Page': './src/page.tsx' },
});
