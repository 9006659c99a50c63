const { appConfig } = require('@console/shared/mf');

module.exports = appConfig({ name: 'shell', dir: __dirname, host: true, devPort: 3000 });
