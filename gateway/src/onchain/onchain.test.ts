// Smart-contract monitoring against a real chain (anvil, one per file) and the DemoToken compiled from
// source: the API's rules (ABI, checksum, plan limit, duplicates, tenants, permission) and the
// watcher's (decoding, contacts, balances, deduplication, confirmations, reorganisations, RPC failures
// and backoff, the generation fence).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { type ContractEventPage, ONCHAIN_MESSAGES, type WatchedContract } from '../contracts';
import { queryRows, textOf } from '../lib/raw-sql';
import { type ErrorBody, startGateway, type TestGateway } from '../../test/helpers';
import { freePort } from '../../test/processes';
import { blockNumber, mine, revert, rpcProxy, type RpcProxy, snapshot, waitUntil } from '../../test/onchain-helpers';
import {
  type DemoToken,
  type LocalChain,
  compileDemoToken,
  deployDemoToken,
  devAccount,
  mintDemoToken,
  startAnvil,
  transferDemoToken,
} from './local-chain/index';
import { loadWatchRows, writeRange } from './watch-store';

const FLAKY_CHAIN = 1337;
let chain: LocalChain;
let proxy: RpcProxy;
let gw: TestGateway;
const artifact = compileDemoToken();
const ABI = JSON.stringify(artifact.abi);
const TRANSFER = 'Transfer(address,address,uint256)';
const wallet = (i: number): Address => devAccount(i).address;

before(async () => {
  chain = await startAnvil({ port: await freePort() });
  proxy = await rpcProxy(chain.url);
  gw = await startGateway({
    CHAINS: JSON.stringify([
      { id: 31337, name: 'Local chain', rpc_url: chain.url, explorer_url: 'https://explorer.test' },
      { id: FLAKY_CHAIN, name: 'Flaky chain', rpc_url: proxy.url },
    ]),
    ONCHAIN_POLL_MS: '50',
    ONCHAIN_BACKOFF_MAX_SECONDS: '2',
    JOBS_POLL_SECONDS: '0.5',
  });
});
after(async () => {
  await gw?.close();
  await proxy?.close();
  await chain?.stop();
});

const deploy = (symbol = 'DEMO') => deployDemoToken(chain.url, { artifact, symbol });

async function watch(token: string, body: Record<string, unknown>) {
  return gw.post<WatchedContract & ErrorBody>(
    '/v1/onchain/contracts',
    { name: 'Token', abi: ABI, events: [TRANSFER], ...body },
    token,
  );
}

async function contract(token: string, id: string): Promise<WatchedContract> {
  return (await gw.get<WatchedContract>(`/v1/onchain/contracts/${id}`, token)).body;
}

async function feed(token: string, id: string): Promise<ContractEventPage> {
  const r = await gw.get<ContractEventPage>(`/v1/onchain/contracts/${id}/events?perPage=100`, token);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function holdings(contractId: string): Promise<Record<string, string>> {
  const rows = await queryRows(
    gw.handle.db,
    sql`select wallet, balance::text from token_holdings where contract_id = ${contractId} order by wallet`,
  );
  return Object.fromEntries(rows.map((r) => [textOf(r, 'wallet'), textOf(r, 'balance')]));
}

async function tenantId(name: string): Promise<string> {
  const [row] = await queryRows(gw.handle.db, sql`select id::text from tenants where name = ${name}`);
  return textOf(row ?? {}, 'id') ?? '';
}

async function unwatch(token: string, id: string) {
  assert.equal((await gw.request(`/v1/onchain/contracts/${id}`, { method: 'DELETE', token })).status, 204);
}

describe('the API', () => {
  it('checks the ABI, the events, the chain and the address checksum, with field errors', async () => {
    const owner = await gw.login('acmeOwner');
    const token = await deploy();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ address: token.address, abi: 'not json' }, 'abi', ONCHAIN_MESSAGES.abi],
      [
        { address: token.address, abi: '[{"type":"function","name":"f","inputs":[]}]' },
        'abi',
        ONCHAIN_MESSAGES.abiNoEvents,
      ],
      [{ address: token.address, events: ['Mint(address)'] }, 'events', ONCHAIN_MESSAGES.unknownEvent],
      [{ address: token.address, chain_id: 999 }, 'chain_id', ONCHAIN_MESSAGES.chain],
      // One letter's case changed: the EIP-55 checksum no longer holds.
      [{ address: token.address.replace(/[a-f]/, (c) => c.toUpperCase()) }, 'address', ONCHAIN_MESSAGES.address],
      [{ address: '0x1234' }, 'address', ONCHAIN_MESSAGES.address],
    ];
    for (const [body, field, message] of cases) {
      const r = await watch(owner, { chain_id: 31337, start_block: 0, ...body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.deepEqual(r.body.errors?.[field], [message], r.text);
    }
    assert.equal((await gw.get<{ used: number }>('/v1/onchain/quota', owner)).body.used, 0);
  });

  it('holds the plan’s limit (BASIC 2), refuses duplicates, keeps tenants apart and staff without the permission out', async () => {
    const basic = await gw.login('basicOwner');
    const lab = await gw.login('labOwner');
    const staff = await gw.login('acmeStaff');
    const [a, b, c] = [await deploy(), await deploy(), await deploy()];
    const first = await watch(basic, { chain_id: 31337, address: a.address, start_block: 0 });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.address, a.address);
    assert.equal(first.body.state, 'catching_up');
    // The same contract again, spelled in lower case: a duplicate.
    const again = await watch(basic, { chain_id: 31337, address: a.address.toLowerCase() });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.message, ONCHAIN_MESSAGES.duplicate);
    // Without start_block: the chain's head now.
    const second = await watch(basic, { chain_id: 31337, address: b.address });
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.start_block, (await blockNumber(chain.url)).toString());
    assert.deepEqual((await gw.get('/v1/onchain/quota', basic)).body, { used: 2, limit: 2 });
    const third = await watch(basic, { chain_id: 31337, address: c.address });
    assert.equal(third.status, 403, third.text);
    assert.equal(third.body.message, 'Your plan watches at most 2 smart contracts.');
    // GROW UP watches 3.
    assert.deepEqual((await gw.get('/v1/onchain/quota', lab)).body, { used: 0, limit: 3 });

    // Another tenant sees none of it: its list is empty and the ids are 404s.
    assert.equal((await gw.get<{ records: unknown[] }>('/v1/onchain/contracts', lab)).body.records.length, 0);
    for (const [method, path] of [
      ['GET', `/v1/onchain/contracts/${first.body._id}`],
      ['GET', `/v1/onchain/contracts/${first.body._id}/events`],
      ['PATCH', `/v1/onchain/contracts/${first.body._id}`],
      ['DELETE', `/v1/onchain/contracts/${first.body._id}`],
    ] as const) {
      const r = await gw.request(path, { method, token: lab, ...(method === 'PATCH' ? { body: { name: 'x' } } : {}) });
      assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
    }
    // Staff without monitor_smart_contracts: 403 on every route.
    for (const path of ['/v1/onchain/chains', '/v1/onchain/quota', '/v1/onchain/contracts']) {
      assert.equal((await gw.get(path, staff)).status, 403, path);
    }
    assert.equal((await watch(staff, { chain_id: 31337, address: c.address })).status, 403);

    const list = await gw.get<{ records: WatchedContract[] }>(
      '/v1/onchain/contracts?sortField=name&sortOrder=asc',
      basic,
    );
    assert.deepEqual(list.body.records.map((r) => r._id).sort(), [first.body._id, second.body._id].sort());
    const chains = await gw.get<{ records: { id: number; head_block: string | null }[] }>('/v1/onchain/chains', basic);
    assert.equal(chains.status, 200);
    assert.ok(chains.body.records.find((r) => r.id === 31337)?.head_block);

    await unwatch(basic, first.body._id);
    await unwatch(basic, second.body._id);
    assert.equal((await gw.get<{ used: number }>('/v1/onchain/quota', basic)).body.used, 0);
  });
});

describe('the watcher', () => {
  let owner: string;
  let token: DemoToken;
  let id: string;
  before(async () => {
    owner = await gw.login('acmeOwner');
    const acme = await tenantId('Acme DAO');
    // A contact whose wallet the events name (stored checksummed; events carry it in lower case).
    await gw.handle.db.execute(
      sql`insert into contacts (tenant_id, email, wallet) values (${acme}, 'holder@acme.test', ${wallet(1)})`,
    );
    token = await deploy('ACME');
    const r = await watch(owner, { chain_id: 31337, address: token.address, start_block: Number(token.deployBlock) });
    assert.equal(r.status, 201, r.text);
    id = r.body._id;
  });
  after(() => unwatch(owner, id));

  it('decodes confirmed Transfers into the feed with their contacts, keeps balances and reads decimals and symbol once', async () => {
    await mintDemoToken(chain.url, token, wallet(1), 1000n);
    await transferDemoToken(chain.url, token, 1, wallet(2), 300n);
    await waitUntil(async () => (await feed(owner, id)).records.length === 2, 20_000, 'two events');
    const events = (await feed(owner, id)).records;
    // Newest first: the transfer, then the mint.
    assert.deepEqual(
      events.map((e) => [e.event_name, e.args.from, e.args.to, e.args.value]),
      [
        ['Transfer', wallet(1), wallet(2), '300'],
        ['Transfer', '0x0000000000000000000000000000000000000000', wallet(1), '1000'],
      ],
    );
    const [transfer, minted] = events;
    assert.ok(transfer && minted);
    assert.deepEqual(
      minted.contacts.map((c) => [c.email, c.wallet, c.argument]),
      [['holder@acme.test', wallet(1).toLowerCase(), 'to']],
    );
    assert.deepEqual(
      transfer.contacts.map((c) => c.argument),
      ['from'],
    );
    assert.equal(transfer.tx_url, `https://explorer.test/tx/${transfer.tx_hash}`);
    assert.deepEqual(await holdings(id), {
      [wallet(1).toLowerCase()]: '700',
      [wallet(2).toLowerCase()]: '300',
    });
    await waitUntil(async () => (await contract(owner, id)).state === 'live', 10_000, 'live');
    const c = await contract(owner, id);
    assert.deepEqual(c.token, { symbol: 'ACME', decimals: 18 });
    assert.equal(c.event_count, 2);
    const [seen] = await queryRows(
      gw.handle.db,
      sql`select count(*)::int as n from onchain_wallets where wallet = ${wallet(2).toLowerCase()}`,
    );
    assert.equal(Number(seen?.n), 1);
    const walletRows = await queryRows(gw.handle.db, sql`select wallet from wallet_events where contract_id = ${id}`);
    // The zero address of the mint is nobody's wallet.
    assert.equal(walletRows.length, 3);
  });

  it('reads a range again without counting anything twice (transaction hash and log index)', async () => {
    const before = await contract(owner, id);
    const balances = await holdings(id);
    await gw.handle.db.execute(
      sql`update watched_contracts set last_block = start_block - 1, last_block_hash = null, generation = generation + 1
           where id = ${id}`,
    );
    await waitUntil(
      async () => BigInt((await contract(owner, id)).last_block) >= BigInt(before.last_block),
      10_000,
      'reread',
    );
    assert.equal((await feed(owner, id)).records.length, 2);
    assert.deepEqual(await holdings(id), balances);
    const walletRows = await queryRows(gw.handle.db, sql`select wallet from wallet_events where contract_id = ${id}`);
    assert.equal(walletRows.length, 3);
  });

  it('refuses a stale run’s write (the generation fence)', async () => {
    const [row] = (await loadWatchRows(gw.handle.db, 31337)).filter((r) => r.id === id);
    assert.ok(row);
    const stale = { ...row, generation: row.generation - 1 };
    const written = await writeRange(gw.handle.db, stale, {
      events: [],
      checkpoint: { block: row.lastBlock + 1000n, hash: '0xdead' },
      head: row.lastBlock + 1000n,
      state: 'live',
      token: 'erc20',
    });
    assert.equal(written, null);
    assert.equal((await contract(owner, id)).last_block, row.lastBlock.toString());
  });
});

describe('a token watched after its first transfers', () => {
  it('opens each wallet at its balanceOf at the checkpoint, so balances are the chain’s, never negative', async () => {
    const owner = await gw.login('acmeOwner');
    const token = await deploy('OLD');
    // Held before the watch starts: the watcher never sees these move.
    await mintDemoToken(chain.url, token, wallet(3), 1000n);
    await mintDemoToken(chain.url, token, wallet(4), 50n);
    const start = (await blockNumber(chain.url)) + 1n;
    const r = await watch(owner, { chain_id: 31337, address: token.address, start_block: Number(start) });
    assert.equal(r.status, 201, r.text);
    try {
      await transferDemoToken(chain.url, token, 3, wallet(4), 300n);
      await waitUntil(async () => (await feed(owner, r.body._id)).records.length === 1, 20_000, 'the transfer');
      assert.deepEqual(await holdings(r.body._id), {
        [wallet(3).toLowerCase()]: '700',
        [wallet(4).toLowerCase()]: '350',
      });
      // The feed is newest first by block NUMBER: a block with more digits comes first.
      const now = await blockNumber(chain.url);
      await mine(chain.url, Number(10n ** BigInt(now.toString().length) - now));
      await transferDemoToken(chain.url, token, 4, wallet(3), 1n);
      await waitUntil(async () => (await feed(owner, r.body._id)).records.length === 2, 20_000, 'the second transfer');
      const blocks = (await feed(owner, r.body._id)).records.map((e) => BigInt(e.block_number));
      assert.ok(blocks[0]! > blocks[1]!, `newest first: ${blocks.join(', ')}`);
    } finally {
      await unwatch(owner, r.body._id);
    }
  });
});

describe('confirmations and reorganisations', () => {
  let owner: string;
  before(async () => {
    owner = await gw.login('labOwner');
  });

  it('waits for the confirmations, and an event a reorganisation removed before them never counts', async () => {
    const token = await deploy();
    const r = await watch(owner, {
      chain_id: 31337,
      address: token.address,
      start_block: Number(token.deployBlock),
      confirmations: 3,
    });
    assert.equal(r.status, 201, r.text);
    const id = r.body._id;
    const snap = await snapshot(chain.url);
    await mintDemoToken(chain.url, token, wallet(3), 5n);
    const minedAt = await blockNumber(chain.url);
    await mine(chain.url, 1);
    // Two confirmations of three: not in the feed, the checkpoint stays before its block.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal((await feed(owner, id)).records.length, 0);
    assert.ok(BigInt((await contract(owner, id)).last_block) < minedAt);
    // The chain drops that block and goes on without it.
    assert.equal(await revert(chain.url, snap), true);
    await mine(chain.url, 6);
    const head = await blockNumber(chain.url);
    await waitUntil(async () => BigInt((await contract(owner, id)).last_block) >= head - 2n, 10_000, 'caught up');
    assert.equal((await feed(owner, id)).records.length, 0);
    assert.deepEqual(await holdings(id), {});

    // A mint that stays: in the feed once its third confirmation is mined.
    await mintDemoToken(chain.url, token, wallet(4), 7n);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await feed(owner, id)).records.length, 0);
    await mine(chain.url, 2);
    await waitUntil(async () => (await feed(owner, id)).records.length === 1, 10_000, 'confirmed event');
    assert.deepEqual(await holdings(id), { [wallet(4).toLowerCase()]: '7' });
    await unwatch(owner, id);
  });

  it('rewinds a reorganisation deeper than the confirmations: the lost event and its balance go', async () => {
    const token = await deploy();
    const r = await watch(owner, { chain_id: 31337, address: token.address, start_block: Number(token.deployBlock) });
    const id = r.body._id;
    await mintDemoToken(chain.url, token, wallet(5), 11n);
    await waitUntil(async () => (await feed(owner, id)).records.length === 1, 10_000, 'first event');
    const snap = await snapshot(chain.url);
    await mintDemoToken(chain.url, token, wallet(6), 13n);
    await waitUntil(async () => (await feed(owner, id)).records.length === 2, 10_000, 'second event');
    assert.deepEqual(await holdings(id), { [wallet(5).toLowerCase()]: '11', [wallet(6).toLowerCase()]: '13' });
    // The confirmed block of the second mint is replaced by others.
    await revert(chain.url, snap);
    await mine(chain.url, 3);
    await waitUntil(async () => (await feed(owner, id)).records.length === 1, 10_000, 'rewound');
    await waitUntil(async () => (await contract(owner, id)).state === 'live', 10_000, 'live again');
    assert.deepEqual(await holdings(id), { [wallet(5).toLowerCase()]: '11', [wallet(6).toLowerCase()]: '0' });
    const seen = await queryRows(
      gw.handle.db,
      sql`select 1 from onchain_wallets where wallet = ${wallet(6).toLowerCase()}`,
    );
    assert.equal(seen.length, 0);
    await unwatch(owner, id);
  });
});

describe('RPC failures', () => {
  it('shows the RPC’s message, backs off on rate limits and errors, and resumes from the checkpoint', async () => {
    const owner = await gw.login('labOwner');
    const token = await deploy();
    await mintDemoToken(chain.url, token, wallet(7), 1n);
    const r = await watch(owner, {
      chain_id: FLAKY_CHAIN,
      address: token.address,
      start_block: Number(token.deployBlock),
    });
    assert.equal(r.status, 201, r.text);
    const id = r.body._id;
    await waitUntil(async () => (await feed(owner, id)).records.length === 1, 10_000, 'first event');

    proxy.mode = 'rate_limit';
    proxy.refused = [];
    await waitUntil(async () => (await contract(owner, id)).state === 'error', 10_000, 'error state');
    assert.match((await contract(owner, id)).last_error ?? '', /rate limit/);
    // Backing off (1 s, 2 s, 2 s …) rather than asking every 50 ms.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    assert.ok(proxy.refused.length <= 5, `asked ${proxy.refused.length} times in 4 s`);

    proxy.mode = 'fail';
    await waitUntil(async () => /500/.test((await contract(owner, id)).last_error ?? ''), 10_000, 'HTTP 500');

    await mintDemoToken(chain.url, token, wallet(7), 2n);
    proxy.mode = 'pass';
    await waitUntil(async () => (await feed(owner, id)).records.length === 2, 10_000, 'resumed');
    const c = await contract(owner, id);
    assert.equal(c.last_error, null);
    assert.equal(c.state, 'live');
    assert.deepEqual(await holdings(id), { [wallet(7).toLowerCase()]: '3' });
    await unwatch(owner, id);
  });
});

describe('ranges', () => {
  it('halves a range the node refuses as too large and reads every event', async () => {
    const owner = await gw.login('labOwner');
    const token = await deploy();
    for (let i = 0; i < 12; i++) await mintDemoToken(chain.url, token, wallet(8), 1n);
    proxy.mode = 'cap_range';
    proxy.refused = [];
    try {
      const r = await watch(owner, {
        chain_id: FLAKY_CHAIN,
        address: token.address,
        start_block: Number(token.deployBlock),
      });
      assert.equal(r.status, 201, r.text);
      await waitUntil(async () => (await feed(owner, r.body._id)).records.length === 12, 20_000, 'twelve events');
      await waitUntil(async () => (await contract(owner, r.body._id)).state === 'live', 10_000, 'live');
      assert.ok(proxy.refused.length > 0, 'a range was refused');
      assert.equal((await contract(owner, r.body._id)).last_error, null);
      assert.deepEqual(await holdings(r.body._id), { [wallet(8).toLowerCase()]: '12' });
      await unwatch(owner, r.body._id);
    } finally {
      proxy.mode = 'pass';
    }
  });
});
