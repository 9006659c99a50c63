// On-chain facts written straight to the tables the watcher fills (gateway/src/onchain/schema.ts), for
// suites that need facts without a chain: a watched contract, balances, a wallet's part in events, first
// sightings. Wallets are stored lower-case, as the watcher stores them.
import { sql } from 'drizzle-orm';
import { queryRows, textOf, type Queryable } from '../src/lib/raw-sql';

export interface FixtureContract {
  tenantId: string;
  name: string;
  /** Canonical signatures of the watched events. */
  events: string[];
  /** Set: balances are kept (a token with these decimals). */
  token?: { decimals: number; symbol: string | null };
  /** 0x + 40 hex; a fresh one by default. */
  address?: string;
}

let addresses = 0;

/** A text[] literal (`{"a","b"}`), bound as one parameter. */
const textArray = (items: string[]) => `{${items.map((t) => `"${t.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/** A watched contract (live, checkpoint at block 100); returns its id. */
export async function insertWatchedContract(db: Queryable, c: FixtureContract): Promise<string> {
  const address = c.address ?? `0x${(++addresses).toString(16).padStart(4, '0')}${'a'.repeat(36)}`;
  const [row] = await queryRows(
    db,
    sql`insert into watched_contracts (tenant_id, chain_id, address, name, abi, events, start_block, state, last_block,
                                       token_decimals, token_symbol)
        values (${c.tenantId}::uuid, 31337, ${address}, ${c.name}, '[]'::jsonb, ${textArray(c.events)}::text[], 0, 'live', 100,
                ${c.token?.decimals ?? null}, ${c.token?.symbol ?? null})
        returning id::text`,
  );
  const id = row ? textOf(row, 'id') : null;
  if (!id) throw new Error('watched contract not inserted');
  return id;
}

/** A wallet's balance of a token, in its smallest unit (a decimal string). */
export async function insertHolding(
  db: Queryable,
  tenantId: string,
  contractId: string,
  wallet: string,
  balance: string,
): Promise<void> {
  await db.execute(
    sql`insert into token_holdings (contract_id, wallet, tenant_id, balance, updated_block)
        values (${contractId}::uuid, ${wallet.toLowerCase()}, ${tenantId}::uuid, ${balance}::numeric, 100)`,
  );
}

let logIndex = 0;

/** One confirmed event of the contract in which `wallets` took part (one wallet_events row each), at `at`. */
export async function insertWalletEvent(
  db: Queryable,
  e: { tenantId: string; contractId: string; eventName: string; wallets: string[]; at: Date },
): Promise<void> {
  const wallets = e.wallets.map((w) => w.toLowerCase());
  const index = ++logIndex;
  const [row] = await queryRows(
    db,
    sql`insert into contract_events (contract_id, tenant_id, event_name, args, wallets, block_number, block_hash,
                                     block_time, tx_hash, log_index)
        values (${e.contractId}::uuid, ${e.tenantId}::uuid, ${e.eventName}, '{}'::jsonb, ${textArray(wallets)}::text[], 50,
                ${`0x${'b'.repeat(64)}`}, ${e.at.toISOString()}::timestamptz,
                ${`0x${index.toString(16).padStart(64, '0')}`}, ${index})
        returning id::text`,
  );
  const eventId = row ? textOf(row, 'id') : null;
  if (!eventId) throw new Error('contract event not inserted');
  for (const wallet of new Set(wallets)) {
    await db.execute(
      sql`insert into wallet_events (event_id, wallet, tenant_id, contract_id, event_name, block_time)
          values (${eventId}::bigint, ${wallet}, ${e.tenantId}::uuid, ${e.contractId}::uuid, ${e.eventName},
                  ${e.at.toISOString()}::timestamptz)`,
    );
  }
}

/** When the tenant's watched contracts first saw the wallet. */
export async function insertFirstSeen(db: Queryable, tenantId: string, wallet: string, at: Date): Promise<void> {
  await db.execute(
    sql`insert into onchain_wallets (tenant_id, wallet, first_seen_at)
        values (${tenantId}::uuid, ${wallet.toLowerCase()}, ${at.toISOString()}::timestamptz)`,
  );
}
