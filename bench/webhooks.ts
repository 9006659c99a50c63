/**
 * Outgoing webhooks (docs/webhooks.md), alone: `pnpm --filter ./bench exec tsx webhooks.ts`; not in
 * `pnpm bench`. A gateway in this process (the gateway suites' helper) on embedded PGlite, then on a
 * throw-away PostgreSQL server (`BENCH_WEBHOOK_BACKENDS=pglite,postgres`):
 *
 * - the delivery events' hook for a tenant without endpoints: time per call asking whether a commit's 100
 *   events are wanted, once the tenant is known to have none (what the sender pays per commit);
 * - `BENCH_WEBHOOK_EVENTS` (2,000) delivered events written to the outbox in batches of 100 (as a commit
 *   writes them), the drain woken after each, for a tenant with one endpoint at a local receiver
 *   answering 200: events/s from the first write to the last receipt, and each event's latency from its
 *   write to its receipt (p50, p95).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGateway } from '../gateway/test/helpers.ts';
import { tenantId } from '../gateway/test/audience-helpers.ts';
import { insertCampaign, insertRecipients } from '../gateway/src/campaigns/log/test-fixtures.ts';
import {
  deliveryEventsCommitted,
  recordDeliveryEvent,
  wantsDeliveryEvents,
} from '../gateway/src/campaigns/delivery-events.ts';
import { startPostgres } from '../scripts/pg-server.mjs';
import { median, p95, table } from './lib.ts';

const N = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
const BATCH = 100;
const BACKENDS = (process.env.BENCH_WEBHOOK_BACKENDS ?? 'pglite,postgres').split(',');

async function measure(backend: string): Promise<(string | number)[]> {
  const received = new Map<number, number>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { email: string } };
      received.set(Number(/^r(\d+)@/.exec(body.data.email)?.[1]), performance.now());
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const gw = await startGateway({ WEBHOOKS_ALLOW_LOOPBACK: '1', JOBS_POLL_SECONDS: '0.5' });
  try {
    const db = gw.handle.db;
    const [lab, acme] = await Promise.all([tenantId(gw, 'Lab Rats'), tenantId(gw, 'Acme DAO')]);
    const owner = await gw.login('labOwner');
    const made = await gw.request('/v1/webhooks/endpoints', { token: owner, body: { url, events: ['delivered'] } });
    if (made.status !== 201) throw new Error(made.text);

    // The hook for a tenant without endpoints, once known.
    const acmeCampaign = await insertCampaign(db, acme);
    const acmeIds = await insertRecipients(
      db,
      acme,
      acmeCampaign,
      Array.from({ length: BATCH }, (_, i) => ({ address: `a${i}@bench.test` })),
    );
    await recordDeliveryEvent(db, db, {
      type: 'delivered',
      tenantId: acme,
      recipientId: acmeIds[0] ?? 0,
      at: new Date(),
    });
    deliveryEventsCommitted(db);
    await gw.app.deps.background.drain();
    const calls = 100_000;
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) acmeIds.filter(() => wantsDeliveryEvents(db, acme));
    const unusedNs = ((performance.now() - t0) * 1e6) / calls;

    // N events to the endpoint.
    const campaign = await insertCampaign(db, lab);
    const ids = await insertRecipients(
      db,
      lab,
      campaign,
      Array.from({ length: N }, (_, i) => ({ address: `r${i}@bench.test` })),
    );
    const sentAt = new Map<number, number>();
    const start = performance.now();
    for (let i = 0; i < N; i += BATCH) {
      const slice = ids.slice(i, i + BATCH);
      const now = performance.now();
      slice.forEach((_, j) => sentAt.set(i + j, now));
      await db.transaction(async (tx) => {
        for (const id of slice) {
          await recordDeliveryEvent(db, tx, { type: 'delivered', tenantId: lab, recipientId: id, at: new Date() });
        }
      });
      deliveryEventsCommitted(db);
      await new Promise((r) => setTimeout(r, 5));
    }
    const deadline = Date.now() + 600_000;
    while (received.size < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const last = Math.max(...received.values());
    const latencies = [...received.entries()].map(([i, at]) => at - (sentAt.get(i) ?? at));
    return [
      backend,
      `${unusedNs.toFixed(0)} ns`,
      `${received.size}/${N}`,
      Math.round(N / ((last - start) / 1000)),
      `${Math.round(median(latencies))} ms`,
      `${Math.round(p95(latencies))} ms`,
    ];
  } finally {
    await gw.close();
    receiver.close();
  }
}

const rows: (string | number)[][] = [
  ['engine', 'hook, tenant without endpoints (100 events)', 'received', 'events/s', 'latency p50', 'latency p95'],
];
for (const backend of BACKENDS) {
  if (backend === 'postgres') {
    const server = startPostgres(Number(process.env.BENCH_PG_PORT ?? 5499));
    process.env.TEST_DATABASE_URL = server.url;
    try {
      rows.push(await measure(backend));
    } finally {
      delete process.env.TEST_DATABASE_URL;
      server.stop();
    }
  } else {
    rows.push(await measure(backend));
  }
}
console.log(
  `Outgoing webhooks, ${N} delivered events handed over in batches of ${BATCH}, one endpoint\n${table(rows)}`,
);
