const { appConfig } = require('@console/shared/mf');

module.exports = appConfig({ name: 'mfe_admin', dir: __dirname, devPort: 3005 });
