#!/usr/bin/env node
// `npm start`: install, build every app for production, start the gateway (embedded PostgreSQL,
// seeded demo data) and all seven app servers, then print where to open it and the demo logins.
// SKIP_INSTALL=1 / SKIP_BUILD=1 skip those steps.
import { runPnpm } from './pnpm.mjs';
import { DEMO_LOGINS } from './demo-logins.mjs';

if (process.env.SKIP_INSTALL !== '1') runPnpm(['install', '--frozen-lockfile']);
if (process.env.SKIP_BUILD !== '1') runPnpm(['run', 'build']);

const { startSystem } = await import('./system.mjs');
const system = await startSystem({ QUIET: '0' });
const pad = Math.max(...DEMO_LOGINS.map(([who]) => who.length));
console.log(`
  Community Console is running.

  Open the console:  ${system.urls.shell}
  API + docs:        ${system.urls.gateway}/docs
  Remotes:           ${['mfe-engagement', 'mfe-onboarding', 'mfe-advertising', 'mfe-account', 'mfe-admin'].map((p) => system.urls[p]).join('  ')}
  Sample applet:     ${system.urls['applets/token-gate']} (Token Gate, under Apps for GROW UP tenants)
  Bounces (SMTP):    ${system.urls.inboundSmtp} (bounces, complaints and mailto unsubscribes of campaigns)
  Local chain:       ${
    system.chain
      ? `${system.chain.url} (chain ${system.chain.chainId}, one-second blocks); Acme DAO watches its demo token
                     ${system.chain.token.symbol} at ${system.chain.token.address}: \`pnpm chain:activity\` makes transfers`
      : process.env.LOCAL_CHAIN === 'off'
        ? 'off (LOCAL_CHAIN=off)'
        : 'not running (see the warning above)'
  }

  Demo logins:
${DEMO_LOGINS.map(([who, email, pw]) => `    ${who.padEnd(pad)}  ${email.padEnd(20)} ${pw}`).join('\n')}

  E-mails (password reset, confirmation) land in gateway/.data/outbox/ as .eml files, DKIM-signed
  with the platform's key (the gateway printed its DNS record above; docs/domains.md).
  Press Ctrl+C to stop.
`);
const shutdown = async () => {
  await system.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
