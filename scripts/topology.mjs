// Where each part of the system runs. Every port is overridable by an environment variable.
export const APPS = [
  { pkg: 'shell', name: 'shell', portEnv: 'SHELL_PORT', port: 3000 },
  { pkg: 'mfe-engagement', name: 'mfe_engagement', portEnv: 'MFE_ENGAGEMENT_PORT', port: 3001, audience: 'tenant' },
  { pkg: 'mfe-onboarding', name: 'mfe_onboarding', portEnv: 'MFE_ONBOARDING_PORT', port: 3002, audience: 'tenant' },
  { pkg: 'mfe-advertising', name: 'mfe_advertising', portEnv: 'MFE_ADVERTISING_PORT', port: 3003, audience: 'tenant' },
  { pkg: 'mfe-account', name: 'mfe_account', portEnv: 'MFE_ACCOUNT_PORT', port: 3004, audience: 'tenant' },
  { pkg: 'mfe-admin', name: 'mfe_admin', portEnv: 'MFE_ADMIN_PORT', port: 3005, audience: 'admin' },
  // The sample applet: not in the shell's runtime config (the shell learns applets from GET /v1/apps);
  // the gateway's seed registers it from the same variables.
  { pkg: 'applets/token-gate', name: 'applet_token_gate', portEnv: 'APPLET_TOKEN_GATE_PORT', port: 3006, applet: true },
];
export const GATEWAY = { portEnv: 'GATEWAY_PORT', port: 4000 };
// The gateway's inbound SMTP receiver of bounces, complaints and mailto unsubscribes (off unless set:
// the system started here sets it).
export const INBOUND_SMTP = { portEnv: 'INBOUND_SMTP_PORT', port: 2525 };
// The local development chain (anvil) with the demo token (LOCAL_CHAIN=off: not started).
export const CHAIN = { portEnv: 'CHAIN_PORT', port: 8545 };

export function portOf(app, env = process.env) {
  return Number(env[app.portEnv] ?? app.port);
}

export function gatewayUrl(env = process.env) {
  return env.GATEWAY_URL ?? `http://localhost:${Number(env[GATEWAY.portEnv] ?? GATEWAY.port)}`;
}

/** Where an app is reached: its `<NAME>_URL` (a deployed address), else localhost on its port. */
export function baseUrlOf(app, env = process.env) {
  return env[app.portEnv.replace('_PORT', '_URL')] ?? `http://localhost:${portOf(app, env)}`;
}

/**
 * The origins the shell's CSP allows applets to load from (scripts, styles, manifest): the sample
 * applet's and every origin of APPLET_ORIGINS (comma list). An applet registered at any other origin
 * is blocked by the browser and shows "unavailable, retry".
 */
export function appletOrigins(env = process.env) {
  const listed = (env.APPLET_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  const samples = APPS.filter((a) => a.applet).map((a) => baseUrlOf(a, env));
  return [...new Set([...samples, ...listed].map((u) => new URL(u).origin))];
}

/** The runtime config the shell reads at boot (/config/remotes.json). */
export function runtimeConfig(env = process.env) {
  const remotes = {};
  // CONSOLE_REMOTES (e.g. `mfe_account`) limits the console to those remotes: `pnpm try` runs one area alone.
  const only = env.CONSOLE_REMOTES ? env.CONSOLE_REMOTES.split(',') : null;
  for (const app of APPS.filter((a) => a.audience && (!only || only.includes(a.name)))) {
    const base = baseUrlOf(app, env);
    remotes[app.name] = { entry: `${base}/mf-manifest.json`, audience: app.audience };
  }
  const gateway = gatewayUrl(env);
  return {
    gatewayUrl: gateway,
    docsUrl: `${gateway}/docs`,
    remotes,
    supportWidgetUrl: env.SUPPORT_WIDGET_URL || null,
    experimentalPrefix: env.EXPERIMENTAL_PREFIX ?? 'lab',
  };
}
