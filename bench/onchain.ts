/**
 * Smart-contract monitoring (docs/onchain.md), alone: `pnpm --filter ./bench exec tsx onchain.ts`; not in
 * `pnpm bench`. A gateway in this process (the gateway suites' helper) on a throw-away PostgreSQL server
 * and on embedded PGlite (`BENCH_ONCHAIN_BACKENDS=postgres,pglite`, `BENCH_PG_PORT`), each against its own
 * anvil and a DemoToken compiled from source:
 *
 * - backfill: `BENCH_ONCHAIN_EVENTS` (10,000) Transfer events already on the chain (mints of 500 a
 *   transaction, each to its own wallet), then the contract is watched from its deployment: events/s from
 *   the watch request to the last event in the feed, and the event loop's delay meanwhile (p50, p99, max;
 *   `perf_hooks.monitorEventLoopDelay` in this process, where the gateway runs);
 * - live: anvil mining a block a second (`--block-time 1`), one mint sent a little after each block for
 *   `BENCH_ONCHAIN_LIVE` (40) blocks, the contract watched at one confirmation: for each event, the time
 *   from its block's timestamp to its first appearance in the feed (polled every 25 ms), p50, p95, max.
 *   A block's timestamp is whole seconds, so up to a second of it is the timestamp's rounding; the last
 *   column is how long after its timestamp the bench itself saw each block (polling every 20 ms).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startGateway, type TestGateway } from '../gateway/test/helpers.ts';
import { freePort } from '../gateway/test/processes.ts';
import {
  deployDemoToken,
  mintDemoToken,
  mintManyDemoToken,
  startAnvil,
  devAccount,
  chainClients,
} from '../gateway/src/onchain/local-chain/index.ts';
import type { ContractEventPage, WatchedContract } from '../gateway/src/contracts.ts';
import { startPostgres } from '../scripts/pg-server.mjs';
import { median, p95, table } from './lib.ts';

const EVENTS = Number(process.env.BENCH_ONCHAIN_EVENTS ?? 10_000);
const LIVE = Number(process.env.BENCH_ONCHAIN_LIVE ?? 40);
const PER_TX = 500;
const BACKENDS = (process.env.BENCH_ONCHAIN_BACKENDS ?? 'postgres,pglite').split(',');
const TRANSFER = 'Transfer(address,address,uint256)';

async function watch(gw: TestGateway, owner: string, token: { address: string; abi: unknown }, startBlock: bigint) {
  const r = await gw.post<WatchedContract>(
    '/v1/onchain/contracts',
    {
      chain_id: 31337,
      address: token.address,
      name: 'Bench token',
      abi: JSON.stringify(token.abi),
      events: [TRANSFER],
      start_block: Number(startBlock),
    },
    owner,
  );
  if (r.status !== 201) throw new Error(r.text);
  return r.body._id;
}

async function backfill(gw: TestGateway, owner: string, url: string): Promise<(string | number)[]> {
  const token = await deployDemoToken(url);
  for (let i = 0; i < EVENTS; i += PER_TX) {
    const to = Array.from(
      { length: Math.min(PER_TX, EVENTS - i) },
      (_, j) => `0x${(i + j + 1).toString(16).padStart(40, '0')}` as `0x${string}`,
    );
    await mintManyDemoToken(url, token, to, 1n);
  }
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const start = performance.now();
  const id = await watch(gw, owner, token, token.deployBlock);
  for (;;) {
    const c = (await gw.get<WatchedContract>(`/v1/onchain/contracts/${id}`, owner)).body;
    if (c.event_count >= EVENTS) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - start) / 1000;
  delay.disable();
  await gw.request(`/v1/onchain/contracts/${id}`, { method: 'DELETE', token: owner });
  const ms = (ns: number) => `${(ns / 1e6).toFixed(1)} ms`;
  return [
    `${EVENTS}`,
    `${seconds.toFixed(2)} s`,
    Math.round(EVENTS / seconds),
    ms(delay.percentile(50)),
    ms(delay.percentile(99)),
    ms(delay.max),
  ];
}

async function live(gw: TestGateway, owner: string, url: string): Promise<(string | number)[]> {
  const token = await deployDemoToken(url);
  const id = await watch(gw, owner, token, token.deployBlock);
  const client = chainClients(url).public;
  const seen = new Map<string, number>();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const page = (await gw.get<ContractEventPage>(`/v1/onchain/contracts/${id}/events?perPage=20`, owner)).body;
      const now = Date.now();
      for (const e of page.records) {
        if (!seen.has(e.tx_hash)) seen.set(e.tx_hash, now - Date.parse(e.block_time));
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  let block = await client.getBlockNumber();
  const lags: number[] = [];
  for (let i = 0; i < LIVE; i++) {
    // Just after a block is mined: the mint goes into the next one.
    while ((await client.getBlockNumber()) === block) await new Promise((r) => setTimeout(r, 20));
    block = await client.getBlockNumber();
    const mined = await client.getBlock({ blockNumber: block });
    lags.push(Date.now() - Number(mined.timestamp) * 1000);
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 300));
    await mintDemoToken(url, token, devAccount(1).address, 1n, false);
  }
  const deadline = Date.now() + 30_000;
  while (seen.size < LIVE && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  polling = false;
  await poller;
  const latencies = [...seen.values()];
  return [
    `${latencies.length}/${LIVE}`,
    `${Math.round(median(latencies))} ms`,
    `${Math.round(p95(latencies))} ms`,
    `${Math.round(Math.max(...latencies))} ms`,
    `${Math.round(median(lags))} ms`,
  ];
}

const backfillRows: (string | number)[][] = [
  ['engine', 'events', 'time', 'events/s', 'loop delay p50', 'loop delay p99', 'loop delay max'],
];
const liveRows: (string | number)[][] = [
  ['engine', 'events', 'block time → feed p50', 'p95', 'max', 'block seen by the bench after its timestamp, p50'],
];
for (const backend of BACKENDS) {
  const server = backend === 'postgres' ? startPostgres(Number(process.env.BENCH_PG_PORT ?? 5498)) : null;
  if (server) process.env.TEST_DATABASE_URL = server.url;
  const instant = await startAnvil({ port: await freePort(), args: ['--gas-limit', '100000000'] });
  const timed = await startAnvil({ port: await freePort(), blockTime: 1 });
  try {
    for (const [kind, chain] of [
      ['backfill', instant],
      ['live', timed],
    ] as const) {
      const gw = await startGateway({
        LOCAL_CHAIN_URL: chain.url,
        JOBS_POLL_SECONDS: '0.5',
        ADMISSION_MAX_WAIT_MS: '30000',
      });
      try {
        const owner = await gw.login('labOwner');
        if (kind === 'backfill') backfillRows.push([backend, ...(await backfill(gw, owner, chain.url))]);
        else liveRows.push([backend, ...(await live(gw, owner, chain.url))]);
      } finally {
        await gw.close();
      }
    }
  } finally {
    await instant.stop();
    await timed.stop();
    if (server) {
      delete process.env.TEST_DATABASE_URL;
      server.stop();
    }
  }
}
console.log(`Backfill of past Transfer events (one contract)\n${table(backfillRows)}\n`);
console.log(`Live, one-second blocks, one confirmation\n${table(liveRows)}`);
process.exit(0);
