// `pnpm --filter ./bench exec tsx transactional.ts`: the transactional send API (docs/transactional.md),
// on a throw-away PostgreSQL server (BENCH_PG_PORT, default BENCH_PORT_BASE + 310) and on embedded
// PGlite (BENCH_TX_BACKENDS=postgres,pglite), each with a gateway process of its own sending to a
// local SMTP peer (smtp-server) that discards messages:
// (a) POST /v1/transactional/send requests/s with autocannon (10 connections, 5 s after 2 s of warm-up),
//     and a bare node:http server answering the same 202 body in the same run: the ratio (goal >= 0.3);
// (b) BENCH_TX_RATE (100) requests/s for BENCH_TX_SECONDS (20) s, each to its own address: the time from
//     the API call to the end of the message's data at the peer, p50 and p95 (goal p95 < 1 s).
// The requests carry an API key of scope "sending" (Lab Rats: its plan includes API access), its rate
// limit off (API_KEY_RATE_LIMIT=0) so that the gateway's own cost is measured.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { exited, startGatewayProcess, type GatewayProcess } from '../gateway/test/processes.ts';
import { startSmtpPeer, type SmtpPeer } from '../gateway/test/campaign-send-helpers.ts';
import { startPostgres } from '../scripts/pg-server.mjs';
import { median, p95, table } from './lib.ts';

const RATE = Number(process.env.BENCH_TX_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_TX_SECONDS ?? 20);
const BACKENDS = (process.env.BENCH_TX_BACKENDS ?? 'postgres,pglite').split(',').map((b) => b.trim());
const JWT_SECRET = 'transactional-bench-secret-0123456789-abcdef';
const MJML = `<mjml><mj-body><mj-section><mj-column>
  <mj-text>Order {{ order.id }}: {{ amount }} paid. {{ community.name }}</mj-text>
</mj-column></mj-section></mj-body></mjml>`;

function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(opts, (err, res) => (err ? reject(err) : resolve(res))));
}

async function stopGateway(gw: GatewayProcess): Promise<void> {
  gw.proc.kill('SIGTERM');
  await exited(gw.proc);
}

async function call(gw: GatewayProcess, method: string, p: string, token: string | null, body?: unknown) {
  const res = await fetch(`${gw.url}${p}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function prepare(gw: GatewayProcess): Promise<{ token: string; templateId: string }> {
  const { token: session } = (await call(gw, 'POST', '/v1/auth/login', null, {
    email: 'owner@lab.test',
    password: 'lab-pass-2026',
  })) as { token: string };
  const key = await call(gw, 'POST', '/v1/tenants/access-keys', session, {
    action: 'generate',
    name: 'Bench',
    scope: 'sending',
  });
  const token = String(key.secret);
  const made = await call(gw, 'POST', '/v1/templates', session, { name: 'Bench receipt', kind: 'transactional' });
  const templateId = String(made._id);
  await call(gw, 'PATCH', `/v1/templates/${templateId}`, session, { subject: 'Receipt {{ order.id }}', mjml: MJML });
  return { token, templateId };
}

const body = (templateId: string, to: string) =>
  JSON.stringify({ template_id: templateId, to, data: { order: { id: 'B-1' }, amount: '12 USDC' } });

/** (a): the gateway's and a bare server's requests/s on the same request. */
async function throughput(gw: GatewayProcess, token: string, templateId: string): Promise<(string | number)[]> {
  const request = {
    method: 'POST' as const,
    path: '/v1/transactional/send',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body(templateId, 'rps@bench.test'),
  };
  const answer = JSON.stringify({ message_id: '00000000-0000-4000-8000-000000000000' });
  const bare = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = 202;
      res.setHeader('content-type', 'application/json');
      res.end(answer);
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  await cannon({ url: gw.url, connections: 10, duration: 2, requests: [request] });
  const g = await cannon({ url: gw.url, connections: 10, duration: 5, requests: [request] });
  const b = await cannon({ url: bareUrl, connections: 10, duration: 5, requests: [request] });
  bare.close();
  return [
    Math.round(g.requests.average),
    Math.round(b.requests.average),
    (g.requests.average / b.requests.average).toFixed(3),
    g.latency.p99,
    g.non2xx,
  ];
}

/** (b): RATE requests/s for SECONDS s, each to its own address; latency to the end of its data at the peer. */
async function latency(gw: GatewayProcess, peer: SmtpPeer, token: string, templateId: string) {
  const arrived = new Map<string, number>();
  peer.data = (to) => {
    arrived.set(to.toLowerCase(), performance.now());
    return null;
  };
  const sentAt = new Map<string, number>();
  const total = RATE * SECONDS;
  const started = performance.now();
  let refused = 0;
  const calls: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const to = `lat-${i}@bench.test`;
    sentAt.set(to, performance.now());
    calls.push(
      fetch(`${gw.url}/v1/transactional/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: body(templateId, to),
      }).then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 202) refused++;
      }),
    );
  }
  await Promise.all(calls);
  const end = performance.now() + 60_000;
  while (arrived.size < total - refused && performance.now() < end) await new Promise((r) => setTimeout(r, 100));
  const ms: number[] = [];
  for (const [to, t0] of sentAt) {
    const t1 = arrived.get(to);
    if (t1 !== undefined) ms.push(t1 - t0);
  }
  return { sent: total, received: ms.length, refused, p50: median(ms), p95: p95(ms), max: Math.max(...ms) };
}

async function runOn(backend: string, peer: SmtpPeer) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-tx-bench-'));
  const port = Number(process.env.BENCH_PG_PORT ?? Number(process.env.BENCH_PORT_BASE ?? 3200) + 310);
  const server = backend === 'postgres' ? startPostgres(port) : null;
  const env = {
    GATEWAY_DATA_DIR: dataDir,
    JWT_SECRET,
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    LOGIN_THROTTLE_ACCOUNT_MAX: '1000000',
    LOGIN_THROTTLE_ADDRESS_MAX: '1000000',
    API_KEY_RATE_LIMIT: '0',
  };
  const gw = await startGatewayProcess('main', env, server?.url ?? null);
  try {
    const { token, templateId } = await prepare(gw);
    // Latency first, on a quiet gateway (the throughput run leaves thousands of messages to send).
    const lat = await latency(gw, peer, token, templateId);
    const rps = await throughput(gw, token, templateId);
    return { backend, rps, lat };
  } finally {
    await stopGateway(gw);
    server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const peer = await startSmtpPeer(false);
const rpsRows: (string | number)[][] = [
  ['engine', 'gateway req/s', 'bare node:http req/s', 'ratio', 'gateway p99 ms', 'non-2xx'],
];
const latRows: (string | number)[][] = [['engine', 'requests', 'received', 'refused', 'p50 ms', 'p95 ms', 'max ms']];
try {
  for (const backend of BACKENDS) {
    const r = await runOn(backend, peer);
    rpsRows.push([backend, ...r.rps]);
    latRows.push([
      backend,
      r.lat.sent,
      r.lat.received,
      r.lat.refused,
      Math.round(r.lat.p50),
      Math.round(r.lat.p95),
      Math.round(r.lat.max),
    ]);
  }
} finally {
  await peer.close();
}
console.log(`## POST /v1/transactional/send (10 connections, 5 s)\n${table(rpsRows)}`);
console.log(`\n## API call to the SMTP peer at ${RATE} requests/s for ${SECONDS} s\n${table(latRows)}`);
