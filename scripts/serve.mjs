#!/usr/bin/env node
// Serves one app's production build on its own port: `node scripts/serve.mjs <package>`.
// A remote is deployed by rebuilding it and restarting only this server; the shell is not rebuilt.
// The shell's server also answers /config/remotes.json (runtime config) and sets a strict CSP.
import http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { APPS, appletOrigins, portOf, runtimeConfig } from './topology.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function createAppServer(pkg, env = process.env) {
  const app = APPS.find((a) => a.pkg === pkg);
  if (!app) throw new Error(`unknown app ${pkg}`);
  // <PKG>_DIST (e.g. MFE_ONBOARDING_DIST) serves another build of the same app: a deployment.
  const dist = env[`${app.portEnv.replace('_PORT', '_DIST')}`] ?? path.join(root, pkg, 'dist');
  if (!fs.existsSync(dist)) throw new Error(`${pkg} is not built: run pnpm --filter ./${pkg} build`);
  const isShell = pkg === 'shell';
  const assets = sirv(dist, {
    single: isShell,
    etag: true,
    // The build writes .br and .gz siblings of every text asset (shared/mf precompress): sent by
    // Accept-Encoding (brotli first), with Vary: Accept-Encoding; the original otherwise.
    brotli: true,
    gzip: true,
    setHeaders(res, pathname) {
      // Hashed assets are immutable; entry points (html, remoteEntry, manifest) must be re-read on deploy.
      const immutable = /\.[0-9a-f]{8}\.(js|css)$/.test(pathname);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const config = runtimeConfig(env);
  // The remotes' origins and the applets' (topology.mjs appletOrigins): scripts, styles and manifests.
  const origins = [
    ...new Set([...Object.values(config.remotes).map((r) => new URL(r.entry).origin), ...appletOrigins(env)]),
  ];
  const gatewayOrigin = new URL(config.gatewayUrl).origin;
  const supportOrigin = config.supportWidgetUrl ? new URL(config.supportWidgetUrl).origin : '';
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${origins.join(' ')} ${supportOrigin}`.trim(),
    `style-src 'self' 'unsafe-inline' ${origins.join(' ')}`,
    `img-src 'self' data: blob: https: ${gatewayOrigin}`,
    `connect-src 'self' ${gatewayOrigin} ${origins.join(' ')} ${supportOrigin}`.trim(),
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    `form-action 'self' ${gatewayOrigin}`,
  ].join('; ');

  return http
    .createServer((req, res) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (isShell) {
        res.setHeader('Content-Security-Policy', csp);
        res.setHeader('Referrer-Policy', 'same-origin');
        // `pnpm try <area>` only (TRY_SIGN_IN_TOKEN is set by that command, never by `npm start`): hand
        // the demo session's token to the browser as the spec's `token` cookie and open the area.
        if (env.TRY_SIGN_IN_TOKEN && req.url === '/try/sign-in') {
          const cookie = `token=${encodeURIComponent(env.TRY_SIGN_IN_TOKEN)}; Path=/; SameSite=Strict`;
          res.writeHead(302, { 'Set-Cookie': cookie, Location: env.TRY_START_PATH || '/' });
          res.end();
          return;
        }
        if (req.url === '/config/remotes.json') {
          res.setHeader('Content-Type', 'application/json');
          res.setHeader('Cache-Control', 'no-cache');
          res.end(JSON.stringify(config));
          return;
        }
      } else {
        res.setHeader('Access-Control-Allow-Origin', '*');
      }
      assets(req, res, () => {
        res.statusCode = 404;
        res.end('Not found');
      });
    })
    .on('listening', function () {
      if (env.QUIET !== '1') console.log(`${pkg} on http://localhost:${portOf(app, env)}`);
    })
    .listen(portOf(app, env));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  createAppServer(process.argv[2]);
}
