const { appConfig } = require('@console/shared/mf');

module.exports = appConfig({ name: 'mfe_advertising', dir: __dirname, devPort: 3003 });
