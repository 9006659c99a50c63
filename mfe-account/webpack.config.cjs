const { appConfig } = require('@console/shared/mf');

module.exports = appConfig({ name: 'mfe_account', dir: __dirname, devPort: 3004 });
