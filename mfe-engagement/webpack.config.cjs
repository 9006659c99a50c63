const { appConfig } = require('@console/shared/mf');

module.exports = appConfig({ name: 'mfe_engagement', dir: __dirname, devPort: 3001 });
