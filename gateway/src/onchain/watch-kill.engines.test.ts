// The watcher's checkpoint is durable (docs/onchain.md): a gateway killed with SIGKILL at random moments
// of a backfill, then restarted, ends with every event exactly once and the balances they add up to
// (it redoes nothing and skips nothing); two gateways on one PostgreSQL server, one frozen (SIGSTOP)
// past its job's heartbeat, never write one range twice. Real gateway processes (the production
// bundle) against anvil.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Address } from 'viem';
import type { WatchedContract } from '../contracts';
import { openDatabase } from '../db/index';
import { queryRows, textOf } from '../lib/raw-sql';
import { exited, freePort, scratchDatabase, startGatewayProcess, type GatewayProcess } from '../../test/processes';
import { waitUntil } from '../../test/onchain-helpers';
import {
  type DemoToken,
  type LocalChain,
  deployDemoToken,
  devAccount,
  mintManyDemoToken,
  startAnvil,
} from './local-chain/index';

const BLOCKS = 40;
const PER_BLOCK = 100;
const N = BLOCKS * PER_BLOCK;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onchain-kill-'));
let databaseUrl: string | null = null;
let dropDatabase: (() => Promise<void>) | null = null;
let chain: LocalChain;
let token: DemoToken;
const children: ChildProcess[] = [];
/** Wallets minted to: PER_BLOCK of them, each once per block. */
const holders: Address[] = Array.from(
  { length: PER_BLOCK },
  (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as Address,
);

function env(): NodeJS.ProcessEnv {
  return {
    GATEWAY_DATA_DIR: dataDir,
    JWT_SECRET: 'onchain-kill-test-secret-0123456789-abcdef',
    LOCAL_CHAIN_URL: chain.url,
    ONCHAIN_MAX_RANGE: '1',
    ONCHAIN_POLL_MS: '50',
    JOBS_POLL_SECONDS: '0.5',
    JOBS_HEARTBEAT_SECONDS: '10',
    JOBS_SUPERVISE_SECONDS: '2',
  };
}

async function start(): Promise<GatewayProcess> {
  const started = await startGatewayProcess('main', env(), databaseUrl);
  children.push(started.proc);
  return started;
}

async function headersOf(url: string): Promise<Record<string, string>> {
  const login = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@basic.test', password: 'basic-pass-2026' }),
  });
  const { token: bearer } = (await login.json()) as { token: string };
  return { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
}

async function contractOf(url: string, id: string): Promise<WatchedContract> {
  const r = await fetch(`${url}/v1/onchain/contracts/${id}`, { headers: await headersOf(url) });
  return (await r.json()) as WatchedContract;
}

before(async () => {
  chain = await startAnvil({ port: await freePort() });
  token = await deployDemoToken(chain.url);
  for (let b = 0; b < BLOCKS; b++) await mintManyDemoToken(chain.url, token, holders, 5n);
  if (!process.env.TEST_DATABASE_URL) return;
  const scratch = await scratchDatabase(process.env.TEST_DATABASE_URL, 'onchain_kill');
  databaseUrl = scratch.url;
  dropDatabase = scratch.drop;
});

after(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
  }
  await dropDatabase?.();
  await chain?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Every event once, and balances that are the sum of their mints (nothing applied twice, nothing skipped). */
async function assertExact(id: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
  try {
    const [counts] = await queryRows(
      handle.db,
      sql`select (select count(*) from contract_events where contract_id = ${id})::int as events,
                 (select count(distinct (tx_hash, log_index)) from contract_events where contract_id = ${id})::int as distinct_logs,
                 (select count(*) from wallet_events where contract_id = ${id})::int as wallets,
                 (select count(*) from token_holdings where contract_id = ${id} and balance = ${BLOCKS * 5})::int as exact,
                 (select count(*) from token_holdings where contract_id = ${id})::int as holdings`,
    );
    assert.deepEqual(counts, { events: N, distinct_logs: N, wallets: N, exact: PER_BLOCK, holdings: PER_BLOCK });
    const [row] = await queryRows(handle.db, sql`select last_block::text from watched_contracts where id = ${id}`);
    assert.ok(BigInt(textOf(row ?? {}, 'last_block') ?? '0') >= token.deployBlock + BigInt(BLOCKS));
  } finally {
    await handle.close();
  }
}

it(
  'a gateway killed at random moments of a backfill, then restarted, writes every event once',
  { timeout: 300_000 },
  async () => {
    let gw = await start();
    const r = await fetch(`${gw.url}/v1/onchain/contracts`, {
      method: 'POST',
      headers: await headersOf(gw.url),
      body: JSON.stringify({
        chain_id: 31337,
        address: token.address,
        name: 'Demo',
        abi: JSON.stringify(token.abi),
        events: ['Transfer(address,address,uint256)'],
        start_block: Number(token.deployBlock),
      }),
    });
    assert.equal(r.status, 201, await r.clone().text());
    const { _id: id } = (await r.json()) as WatchedContract;
    const kills: number[] = [];
    for (let k = 0; k < 3; k++) {
      const from = (await contractOf(gw.url, id)).event_count;
      // Some way into what is left: at a random moment after the next range was written.
      await waitUntil(async () => (await contractOf(gw.url, id)).event_count > from, 60_000, 'progress');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 150));
      gw.proc.kill('SIGKILL');
      await exited(gw.proc);
      kills.push(from);
      gw = await start();
    }
    await waitUntil(
      async () => (await contractOf(gw.url, id)).event_count === N,
      120_000,
      `${N} events (kills after ${kills.join(', ')})`,
    );
    await waitUntil(async () => (await contractOf(gw.url, id)).state === 'live', 30_000, 'live');
    gw.proc.kill('SIGTERM');
    await exited(gw.proc);
    await assertExact(id);
  },
);

it(
  'two gateways on one PostgreSQL server, one frozen mid-read, never write one range twice',
  { timeout: 300_000 },
  async (t) => {
    if (!databaseUrl) return t.skip('PostgreSQL only (PGlite belongs to one process)');
    const [a, b] = await Promise.all([start(), start()]);
    const r = await fetch(`${a.url}/v1/onchain/contracts`, {
      method: 'POST',
      headers: await headersOf(a.url),
      body: JSON.stringify({
        chain_id: 31337,
        address: devAccount(9).address,
        name: 'Nothing here',
        abi: JSON.stringify(token.abi),
        events: ['Transfer(address,address,uint256)'],
        start_block: 0,
      }),
    });
    assert.equal(r.status, 201);
    // The first contract again from scratch, read by two processes at once.
    const handle = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
    let id = '';
    try {
      const [row] = await queryRows(
        handle.db,
        sql`select id::text from watched_contracts where address = ${token.address}`,
      );
      id = textOf(row ?? {}, 'id') ?? '';
      await handle.db.execute(
        sql`with gone as (delete from contract_events where contract_id = ${id})
          update watched_contracts set last_block = start_block - 1, last_block_hash = null, generation = generation + 1,
                 state = 'catching_up' where id = ${id}`,
      );
      await handle.db.execute(sql`delete from token_holdings where contract_id = ${id}`);
    } finally {
      await handle.close();
    }
    // One of them frozen mid-read for longer than a job's heartbeat: the other takes the chain over, and
    // whatever the frozen one writes when it wakes is refused by the generation fence.
    await waitUntil(async () => (await contractOf(b.url, id)).event_count > 0, 60_000, 'progress');
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
    a.proc.kill('SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 14_000));
    a.proc.kill('SIGCONT');
    await waitUntil(async () => (await contractOf(b.url, id)).event_count === N, 120_000, `${N} events`);
    await waitUntil(async () => (await contractOf(a.url, id)).state === 'live', 30_000, 'live');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await assertExact(id);
  },
);
