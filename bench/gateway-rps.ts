// Gateway throughput: the session check (verify), an authenticated GET of a small resource (with a session,
// and with an API key of a GROW UP tenant: the key check), and login,
// requests per second with autocannon on loopback, as a ratio to a bare node:http server answering
// the same bytes on the same machine in the same run. Goal for verify and the GET: at least 0.5.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { table } from './lib.ts';

function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** A full-access key of Lab Rats (GROW UP has API access); the gateway runs with API_KEY_RATE_LIMIT=0. */
async function apiKeyOf(gatewayUrl: string): Promise<string> {
  const login = await fetch(`${gatewayUrl}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@lab.test', password: 'lab-pass-2026' }),
  });
  const { token } = (await login.json()) as { token: string };
  const created = await fetch(`${gatewayUrl}/v1/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'bench', scope: 'full' }),
  });
  if (created.status !== 201) throw new Error(`creating the bench key: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { secret: string }).secret;
}

export async function gatewayRps(gatewayUrl: string, seconds = 5): Promise<string> {
  const login = await fetch(`${gatewayUrl}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@acme.test', password: 'owner-pass-2026' }),
  });
  const loginBody = await login.text();
  const { token } = JSON.parse(loginBody) as { token: string };
  const verifyBody = await (
    await fetch(`${gatewayUrl}/v1/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    })
  ).text();
  const small = '/v1/communities/my-community';
  const smallBody = await (
    await fetch(`${gatewayUrl}${small}`, { headers: { authorization: `Bearer ${token}` } })
  ).text();

  const secret = await apiKeyOf(gatewayUrl);
  const keyBody = await (
    await fetch(`${gatewayUrl}${small}`, { headers: { authorization: `Bearer ${secret}` } })
  ).text();

  // The baseline answers the same bytes without any work.
  const bare = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      const byKey = req.headers.authorization?.startsWith('Bearer ck_live_');
      res.end(
        req.url === '/v1/auth/login' ? loginBody : req.url === small ? (byKey ? keyBody : smallBody) : verifyBody,
      );
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  const loginReq = {
    method: 'POST' as const,
    path: '/v1/auth/login',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@acme.test', password: 'owner-pass-2026' }),
  };
  const verifyReq = {
    method: 'POST' as const,
    path: '/v1/auth/verify',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  };
  const getReq = { method: 'GET' as const, path: small, headers: { authorization: `Bearer ${token}` } };
  const keyReq = { method: 'GET' as const, path: small, headers: { authorization: `Bearer ${secret}` } };
  const rows: (string | number)[][] = [
    ['endpoint', 'gateway req/s', 'bare node:http req/s', 'ratio', 'gateway p99 ms', 'non-2xx'],
  ];
  for (const [name, req] of [
    ['POST /v1/auth/verify', verifyReq],
    [`GET ${small}`, getReq],
    [`GET ${small} (API key)`, keyReq],
    ['POST /v1/auth/login', loginReq],
  ] as const) {
    // Warmed up first, as a running gateway is: a fresh process compiles its hot paths in the first seconds.
    await cannon({ url: gatewayUrl, connections: 10, duration: 2, requests: [req] });
    const gw = await cannon({ url: gatewayUrl, connections: 10, duration: seconds, requests: [req] });
    const base = await cannon({ url: bareUrl, connections: 10, duration: seconds, requests: [req] });
    rows.push([
      name,
      Math.round(gw.requests.average),
      Math.round(base.requests.average),
      (gw.requests.average / base.requests.average).toFixed(3),
      gw.latency.p99,
      gw.non2xx,
    ]);
  }
  bare.close();
  return `${table(rows)}\n(login hashes with argon2id by design, so it is far slower than a bare answer; login throttling is raised for this run)`;
}
