const { appConfig } = require('@console/shared/mf');

module.exports = appConfig({ name: 'mfe_onboarding', dir: __dirname, devPort: 3002 });
