// pnpm --filter ./bench exec tsx onchain-segments.ts (not in `pnpm bench`: generating a million contacts
// takes minutes)
//
// An on-chain segment's count at 1,000,000 contacts on PostgreSQL: the audience generator's tenant
// (audience/generate.ts), a watched token with BENCH_HOLDERS (100,000) holders among the contacts'
// wallets, 1 to 5 Transfer events each over the last year, and their first sightings. Times the count of
// POST /v1/segments/preview (the gateway's own `previewSegment`, limit 0: the count alone) for rules of
// each on-chain kind, and once the count of a send to the first (the campaign's audience walk). Prints
// markdown and the count's EXPLAIN plan for each rule with BENCH_EXPLAIN=1.
//
// Environment: BENCH_CONTACTS (1000000), BENCH_HOLDERS (100000), BENCH_RUNS (5), BENCH_DATABASE_URL (a
// server's admin URL; else a throw-away server on BENCH_PG_PORT, default 5461). BENCH_KEEP=1 (with
// BENCH_DATABASE_URL) keeps the generated database `onchain_segments_bench`, and a later run with
// BENCH_KEEP=1 measures it again without generating it anew.
import { previewSegment } from '../gateway/src/audience/segments/segment-store.ts';
import { countAudience } from '../gateway/src/campaigns/audience.ts';
import type { SegmentGroup, SegmentRule } from '../gateway/src/contracts.ts';
import { createServerDatabase, openBenchDb, type BenchDb } from './audience/db.ts';
import { explainSegmentCount } from './audience/explain.ts';
import { generateAudience } from './audience/generate.ts';
import { BENCH_PG_SETTINGS, startBenchPostgres, type BenchPostgres } from './audience/postgres.ts';
import { machineLine, mdTable } from './audience/report.ts';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw ? Number(raw.replace(/_/g, '')) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}

const CONTACTS = envInt('BENCH_CONTACTS', 1_000_000);
const HOLDERS = envInt('BENCH_HOLDERS', 100_000);
const RUNS = envInt('BENCH_RUNS', 5);
const GOAL_MS = 1_000;
const log = (line: string) => console.log(line);
const ms = (n: number) => `${n.toFixed(0)} ms`;

/** Balances: 0 to 999.999 tokens of 18 decimals, spread evenly over the holders. */
const HOLDINGS_SQL = `
insert into token_holdings (contract_id, wallet, tenant_id, balance, updated_block)
select $2::uuid, lower(c.wallet), $1::uuid,
       ((hashint4extended(c.n::int, 7) & 1073741823) % 1000000)::numeric * 1000000000000000, 100
from (select wallet, row_number() over () as n
        from (select wallet from contacts where tenant_id = $1::uuid and wallet is not null
               order by hashtext(id::text) limit $3) w) c`;

/** 1 to 5 Transfer events per holder within the last 365 days, each a contract event and its wallet's row. */
const EVENTS_SQL = `
with h as (
  select wallet, hashtext(wallet) & 2147483647 as x from token_holdings where contract_id = $2::uuid
), ev as (
  insert into contract_events (contract_id, tenant_id, event_name, args, wallets, block_number, block_hash,
                               block_time, tx_hash, log_index)
  select $2::uuid, $1::uuid, 'Transfer', '{}'::jsonb, array[h.wallet], 1000, '0x00',
         now() - make_interval(secs => ((h.x::bigint + g * 7919) % 31536000)::float8), md5(h.wallet || g::text), g
  from h cross join lateral generate_series(1, 1 + h.x % 5) g
  returning id, wallets[1] as wallet, block_time
)
insert into wallet_events (event_id, wallet, tenant_id, contract_id, event_name, block_time)
select id, wallet, $1::uuid, $2::uuid, 'Transfer', block_time from ev`;

const FIRST_SEEN_SQL = `
insert into onchain_wallets (tenant_id, wallet, first_seen_at)
select $1::uuid, wallet, min(block_time) from wallet_events where contract_id = $2::uuid group by wallet`;

async function seedOnchain(db: BenchDb, tenantId: string): Promise<string> {
  const t0 = performance.now();
  const [contract] = await db.query<{ id: string }>(
    `insert into watched_contracts (tenant_id, chain_id, address, name, abi, events, start_block, state, last_block,
                                    token_decimals, token_symbol)
     values ($1, 31337, '0x5FbDB2315678afecb367f032d93F642f64180aa3', 'Bench token', '[]'::jsonb,
             '{"Transfer(address,address,uint256)"}', 0, 'live', 100, 18, 'BENCH')
     returning id`,
    [tenantId],
  );
  if (!contract) throw new Error('no contract');
  await db.query(HOLDINGS_SQL, [tenantId, contract.id, HOLDERS]);
  await db.query(EVENTS_SQL, [tenantId, contract.id]);
  await db.query(FIRST_SEEN_SQL, [tenantId, contract.id]);
  await db.query('vacuum (analyze) token_holdings, contract_events, wallet_events, onchain_wallets, watched_contracts');
  const [facts] = await db.query<{ holders: string; events: string; above: string }>(
    `select (select count(*) from token_holdings where contract_id = $1)::text as holders,
            (select count(*) from wallet_events where contract_id = $1)::text as events,
            (select count(*) from token_holdings where contract_id = $1 and balance >= 500${'0'.repeat(18)})::text as above`,
    [contract.id],
  );
  log(
    `  on-chain facts: ${facts?.holders} holders (${facts?.above} with >= 500), ${facts?.events} Transfer rows, ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return contract.id;
}

function rules(contractId: string): [string, SegmentGroup][] {
  const balance = (operator: string, value: SegmentRule['value']): SegmentRule => ({
    field: `chain.balance.${contractId}`,
    operator,
    value,
  });
  const transfer = (value: SegmentRule['value']): SegmentRule => ({
    field: `chain.event.${contractId}.Transfer`,
    operator: '>=',
    value,
  });
  const and = (...r: SegmentRule[]): SegmentGroup => ({ combinator: 'and', rules: r });
  const sixMonths = new Date(Date.now() - 182 * 86_400_000).toISOString().slice(0, 10);
  return [
    ['holds >= 500 BENCH', and(balance('>=', '500'))],
    ['holds between 100 and 200', and(balance('between', ['100', '200']))],
    ['holds < 500 (the complement)', and(balance('<', '500'))],
    ['Transfer at least once, ever', and(transfer([1]))],
    ['Transfer at least 3 times in the last 90 days', and(transfer([3, 90]))],
    ['first seen before 6 months ago', and({ field: 'chain.first_seen', operator: '<', value: sixMonths })],
    [
      'holds >= 500 and subscribed and Transfer in the last 30 days',
      and(balance('>=', '500'), { field: 'status', operator: '=', value: 'subscribed' }, transfer([1, 30])),
    ],
  ];
}

async function timeCount(db: BenchDb, tenantId: string, rule: SegmentGroup): Promise<{ count: number; ms: number[] }> {
  let count = 0;
  const times: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const t0 = performance.now();
    count = (await previewSegment(db.handle.db, tenantId, { rule, limit: 0 })).count;
    // The first run warms the cache.
    if (run > 0) times.push(performance.now() - t0);
  }
  return { count, ms: times.sort((a, b) => a - b) };
}

const DATABASE = 'onchain_segments_bench';

/** The tenant and contract of a database kept by an earlier run (BENCH_KEEP=1), or null. */
async function kept(adminUrl: string): Promise<{ url: string; tenantId: string; contractId: string } | null> {
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE}`;
  try {
    const db = await openBenchDb({ kind: 'postgres', url: url.toString() });
    try {
      const [row] = await db.query<{ tenant_id: string; id: string }>(
        `select tenant_id, id from watched_contracts where name = 'Bench token' limit 1`,
      );
      return row ? { url: url.toString(), tenantId: row.tenant_id, contractId: row.id } : null;
    } finally {
      await db.close();
    }
  } catch {
    return null;
  }
}

async function main() {
  let server: BenchPostgres | null = null;
  let adminUrl = process.env.BENCH_DATABASE_URL;
  const keep = adminUrl !== undefined && process.env.BENCH_KEEP === '1';
  if (!adminUrl) {
    server = startBenchPostgres(envInt('BENCH_PG_PORT', 5461));
    adminUrl = server.url;
  }
  const reused = keep ? await kept(adminUrl) : null;
  const created = reused ? null : await createServerDatabase(adminUrl, DATABASE);
  const db = await openBenchDb({ kind: 'postgres', url: reused?.url ?? created?.url ?? '' });
  try {
    log(`# On-chain segment counts, ${db.label}\n`);
    log(machineLine());
    log(
      `Server settings: ${Object.entries(BENCH_PG_SETTINGS)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}\n`,
    );
    let tenantId: string;
    let contractId: string;
    if (reused) {
      ({ tenantId, contractId } = reused);
      log('  the database kept by an earlier run');
    } else {
      const audience = await generateAudience(db, { contacts: CONTACTS, log, tenantName: 'On-chain bench' });
      log(`  ${CONTACTS.toLocaleString('en')} contacts generated in ${audience.insertSeconds.toFixed(1)} s`);
      tenantId = audience.tenantId;
      contractId = await seedOnchain(db, tenantId);
    }
    const rows: string[][] = [];
    const plans: string[] = [];
    for (const [name, rule] of rules(contractId)) {
      const { count, ms: times } = await timeCount(db, tenantId, rule);
      const median = times[Math.floor(times.length / 2)] ?? 0;
      const max = times[times.length - 1] ?? 0;
      rows.push([name, count.toLocaleString('en'), ms(median), ms(max), max < GOAL_MS ? 'met' : '**not met**']);
      log(`  ${name}: ${count} contacts, median ${ms(median)}`);
      if (process.env.BENCH_EXPLAIN === '1') {
        plans.push(`-- ${name}\n${(await explainSegmentCount(db, tenantId, rule)).text}`);
      }
    }
    log('');
    log(mdTable([['rule', 'contacts', `count, median of ${RUNS}`, 'slowest', `goal < ${GOAL_MS} ms`], ...rows]));
    const first = rules(contractId)[0];
    if (first) {
      const [name, rule] = first;
      const [segment] = await db.query<{ id: string }>(
        `insert into segments (tenant_id, name, rule) values ($1, $2, $3::jsonb) returning id`,
        [tenantId, `${name} ${Date.now()}`, JSON.stringify(rule)],
      );
      const selection = {
        include_lists: [],
        include_segments: [segment?.id ?? ''],
        exclude_lists: [],
        exclude_segments: [],
      };
      const t0 = performance.now();
      const counted = await countAudience(db.handle.db, tenantId, selection, null);
      log(
        `\nA send to "${name}" (countAudience, the snapshot's walk): ${counted.matched.toLocaleString('en')} matched, ` +
          `${counted.reachable.toLocaleString('en')} reachable, ${ms(performance.now() - t0)}`,
      );
    }
    for (const plan of plans) log(`\n\`\`\`\n${plan}\n\`\`\``);
  } finally {
    await db.close();
    if (!keep) await created?.drop().catch(() => undefined);
    server?.stop();
  }
}

await main();
