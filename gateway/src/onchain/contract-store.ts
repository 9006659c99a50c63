/**
 * The tenant's watched contracts as the API reads and writes them (docs/onchain.md): every read and
 * write is scoped by the tenant, so another tenant's contract is a 404. Creating one checks the chain,
 * the address's EIP-55 checksum, the ABI (parseAbi, the rule the console applies too), the events, the
 * plan's limit (billing's catalogue) and duplicates; every edit moves the watcher's fence.
 */
import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { isAddress, getAddress } from 'viem';
import { smartContractLimit } from '../billing/index';
import {
  type ContractEvent,
  type ContractEventListQuery,
  type ContractEventPage,
  type EventContact,
  ONCHAIN_MESSAGES,
  type OnchainQuota,
  parseAbi,
  type WatchContractInput,
  type WatchContractPatch,
  type WatchedContract,
  type WatchedContractDetail,
  type WatchedContractListQuery,
  type WatchedContractPage,
} from '../contracts';
import type { Database } from '../db/index';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { isUuid, uniqueViolation } from '../lib/db-helpers';
import { likePattern, pageWindow, paginate } from '../lib/pagination';
import { json, queryRows, type Queryable, textOf } from '../lib/raw-sql';
import { watchedContracts } from './schema';
import type { ChainSetting } from '../lib/chain-settings';

export const CONTRACT_NOT_FOUND = 'Contract not found.';
export const CHAIN_SILENT = 'The chain did not answer: enter a start block.';

type Row = typeof watchedContracts.$inferSelect;

export interface ContractStoreDeps {
  db: Database;
  chains: readonly ChainSetting[];
  /** The chain's head now (the default start block), or null when it does not answer. */
  head: (chainId: number) => Promise<bigint | null>;
  /** Tells this process's watcher that a chain's contracts changed. */
  changed: (chainId: number) => void;
}

function chainName(chains: readonly ChainSetting[], id: number): string {
  return chains.find((c) => c.id === id)?.name ?? `Chain ${id}`;
}

function wire(chains: readonly ChainSetting[], row: Row, events: number): WatchedContract {
  return {
    _id: row.id,
    chain_id: row.chainId,
    chain_name: chainName(chains, row.chainId),
    address: row.address,
    name: row.name,
    events: row.events,
    start_block: row.startBlock.toString(),
    confirmations: row.confirmations,
    state: row.state,
    last_error: row.lastError,
    last_block: row.lastBlock.toString(),
    head_block: row.headBlock === null ? null : row.headBlock.toString(),
    token: row.tokenDecimals === null ? null : { symbol: row.tokenSymbol, decimals: row.tokenDecimals },
    event_count: events,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function eventCounts(db: Database, ids: string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (ids.length === 0) return found;
  const rows = await queryRows(
    db,
    sql`select c.id::text as id, (select count(*) from contract_events e where e.contract_id = c.id)::int as n
          from unnest(${`{${ids.join(',')}}`}::uuid[]) as c(id)`,
  );
  for (const r of rows) found.set(textOf(r, 'id') ?? '', Number(r.n));
  return found;
}

async function rowOf(db: Database, tenantId: string, id: string): Promise<Row> {
  if (!isUuid(id)) throw notFound(CONTRACT_NOT_FOUND);
  const [row] = await db
    .select()
    .from(watchedContracts)
    .where(and(eq(watchedContracts.tenantId, tenantId), eq(watchedContracts.id, id)));
  if (!row) throw notFound(CONTRACT_NOT_FOUND);
  return row;
}

/** The plan's number of smart contracts and how many the tenant watches. */
export async function quota(db: Queryable, tenantId: string): Promise<OnchainQuota> {
  const rows = await queryRows(
    db,
    sql`select p.key, (select count(*) from watched_contracts w where w.tenant_id = t.id)::int as used
          from tenants t join plans p on p.id = t.plan_id where t.id = ${tenantId}`,
  );
  const row = rows[0];
  return { used: row ? Number(row.used) : 0, limit: smartContractLimit(textOf(row ?? {}, 'key') ?? '') };
}

const SORT: Record<WatchedContractListQuery['sortField'], SQL> = {
  created_at: sql`${watchedContracts.createdAt}`,
  name: sql`lower(${watchedContracts.name})`,
  state: sql`${watchedContracts.state}`,
};

export async function listContracts(
  deps: ContractStoreDeps,
  tenantId: string,
  q: WatchedContractListQuery,
): Promise<WatchedContractPage> {
  const conditions: SQL[] = [eq(watchedContracts.tenantId, tenantId)];
  const search = q.searchString.trim();
  if (search) {
    const pattern = likePattern(search);
    const either = or(ilike(watchedContracts.name, pattern), ilike(watchedContracts.address, pattern));
    if (either) conditions.push(either);
  }
  const where = and(...conditions);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const [[total], rows] = await Promise.all([
    deps.db.select({ n: count() }).from(watchedContracts).where(where),
    deps.db
      .select()
      .from(watchedContracts)
      .where(where)
      .orderBy(direction(SORT[q.sortField]), direction(watchedContracts.id))
      .limit(limit)
      .offset(offset),
  ]);
  const counts = await eventCounts(
    deps.db,
    rows.map((r) => r.id),
  );
  return {
    records: rows.map((r) => wire(deps.chains, r, counts.get(r.id) ?? 0)),
    pagination: paginate(q.page, q.perPage, total?.n ?? 0),
  };
}

export async function getContract(
  deps: ContractStoreDeps,
  tenantId: string,
  id: string,
): Promise<WatchedContractDetail> {
  const row = await rowOf(deps.db, tenantId, id);
  const counts = await eventCounts(deps.db, [row.id]);
  const parsed = parseAbi(JSON.stringify(row.abi));
  return { ...wire(deps.chains, row, counts.get(row.id) ?? 0), abi_events: parsed.events ?? [] };
}

/** The ABI's items as stored: the array itself, also when pasted as an object with an `abi` array. */
function abiItems(source: string): unknown {
  const parsed: unknown = JSON.parse(source);
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'abi' in parsed) return parsed.abi;
  return parsed;
}

/** The watched events, checked against the ABI's signatures: unique, in the ABI's order. */
function watchedEvents(available: readonly string[], chosen: readonly string[]): string[] {
  const wanted = new Set(chosen.map((s) => s.replace(/\s+/g, '')));
  if ([...wanted].some((s) => !available.includes(s)))
    throw badRequest('Check the events.', { events: [ONCHAIN_MESSAGES.unknownEvent] });
  return available.filter((s) => wanted.has(s));
}

export async function createContract(
  deps: ContractStoreDeps,
  tenantId: string,
  userId: string | null,
  input: WatchContractInput,
): Promise<WatchedContract> {
  const errors: Record<string, string[]> = {};
  const chain = deps.chains.find((c) => c.id === input.chain_id);
  if (!chain) errors.chain_id = [ONCHAIN_MESSAGES.chain];
  // EIP-55: a mixed-case address must carry a valid checksum; all-lower or all-upper ones carry none.
  const address = input.address.trim();
  if (!isAddress(address, { strict: true })) errors.address = [ONCHAIN_MESSAGES.address];
  const parsed = parseAbi(input.abi);
  if (parsed.problem !== null) errors.abi = [parsed.problem];
  if (Object.keys(errors).length > 0) throw badRequest('Check the contract.', errors);
  const events = watchedEvents(
    (parsed.events ?? []).map((e) => e.signature),
    input.events,
  );
  let startBlock: bigint;
  if (input.start_block === undefined) {
    const head = await deps.head(input.chain_id);
    if (head === null) throw badRequest('Check the contract.', { start_block: [CHAIN_SILENT] });
    startBlock = head;
  } else {
    startBlock = BigInt(input.start_block);
  }
  const checksummed = getAddress(address);
  const row = await deps.db
    .transaction(async (tx) => {
      // One tenant's creations take turns here, so two at once cannot both pass the plan's limit.
      await tx.execute(sql`select id from tenants where id = ${tenantId} for update`);
      const { used, limit } = await quota(tx, tenantId);
      if (used >= limit) throw forbidden(ONCHAIN_MESSAGES.limit.replace('{limit}', String(limit)));
      const [inserted] = await tx
        .insert(watchedContracts)
        .values({
          tenantId,
          chainId: input.chain_id,
          address: checksummed,
          name: input.name.trim(),
          abi: abiItems(input.abi),
          events,
          startBlock,
          confirmations: input.confirmations ?? 1,
          lastBlock: startBlock - 1n,
          createdBy: userId,
        })
        .returning();
      return inserted;
    })
    .catch((error: unknown) => {
      if (uniqueViolation(error) === 'watched_contracts_address_idx')
        throw conflict(ONCHAIN_MESSAGES.duplicate, { address: [ONCHAIN_MESSAGES.duplicate] });
      throw error;
    });
  if (!row) throw new Error('watched contract not inserted');
  deps.changed(row.chainId);
  return wire(deps.chains, row, 0);
}

export async function updateContract(
  deps: ContractStoreDeps,
  tenantId: string,
  id: string,
  patch: WatchContractPatch,
): Promise<WatchedContract> {
  const row = await rowOf(deps.db, tenantId, id);
  const set: Partial<typeof watchedContracts.$inferInsert> = {};
  if (patch.name !== undefined) set.name = patch.name.trim();
  if (patch.events !== undefined) {
    const parsed = parseAbi(JSON.stringify(row.abi));
    set.events = watchedEvents(
      (parsed.events ?? []).map((e) => e.signature),
      patch.events,
    );
  }
  if (patch.confirmations !== undefined) set.confirmations = patch.confirmations;
  if (patch.paused === true) set.state = 'paused';
  if (patch.paused === false && row.state === 'paused') {
    set.state = 'catching_up';
    set.failures = 0;
    set.lastError = null;
  }
  const [updated] = await deps.db
    .update(watchedContracts)
    .set({ ...set, generation: sql`${watchedContracts.generation} + 1`, updatedAt: new Date() })
    .where(and(eq(watchedContracts.tenantId, tenantId), eq(watchedContracts.id, row.id)))
    .returning();
  if (!updated) throw notFound(CONTRACT_NOT_FOUND);
  deps.changed(updated.chainId);
  const counts = await eventCounts(deps.db, [updated.id]);
  return wire(deps.chains, updated, counts.get(updated.id) ?? 0);
}

export async function deleteContract(deps: ContractStoreDeps, tenantId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound(CONTRACT_NOT_FOUND);
  const [deleted] = await deps.db
    .delete(watchedContracts)
    .where(and(eq(watchedContracts.tenantId, tenantId), eq(watchedContracts.id, id)))
    .returning({ chainId: watchedContracts.chainId });
  if (!deleted) throw notFound(CONTRACT_NOT_FOUND);
  deps.changed(deleted.chainId);
}

/** A contract's feed: newest first, each event with the tenant's contacts its wallet arguments name. */
export async function contractEvents(
  deps: ContractStoreDeps,
  tenantId: string,
  id: string,
  q: ContractEventListQuery,
): Promise<ContractEventPage> {
  const row = await rowOf(deps.db, tenantId, id);
  const explorer = deps.chains.find((c) => c.id === row.chainId)?.explorerUrl ?? null;
  const filter = q.event ? sql`and event_name = ${q.event}` : sql``;
  const direction = q.sortOrder === 'asc' ? sql`asc` : sql`desc`;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const [totalRows, rows] = await Promise.all([
    queryRows(deps.db, sql`select count(*)::int as n from contract_events where contract_id = ${row.id} ${filter}`),
    queryRows(
      deps.db,
      sql`select id::text, event_name, args, wallets, block_number::text as block_number, block_time, tx_hash, log_index
            from contract_events where contract_id = ${row.id} ${filter}
           order by contract_events.block_number ${direction}, contract_events.log_index ${direction}
           limit ${limit} offset ${offset}`,
    ),
  ]);
  const wallets = [...new Set(rows.flatMap((r) => (Array.isArray(r.wallets) ? r.wallets.map(String) : [])))];
  const contactsByWallet = new Map<string, { _id: string; email: string | null }[]>();
  if (wallets.length > 0) {
    const contacts = await queryRows(
      deps.db,
      sql`select c.id::text, c.email, lower(c.wallet) collate "C" as wallet
            from contacts c join json_array_elements_text(${json(wallets)}::json) as w(wallet)
              on lower(c.wallet) collate "C" = w.wallet collate "C"
           where c.tenant_id = ${tenantId}`,
    );
    for (const c of contacts) {
      const wallet = textOf(c, 'wallet') ?? '';
      contactsByWallet.set(wallet, [
        ...(contactsByWallet.get(wallet) ?? []),
        { _id: textOf(c, 'id') ?? '', email: textOf(c, 'email') },
      ]);
    }
  }
  const records = rows.map((r): ContractEvent => {
    const args = (r.args ?? {}) as ContractEvent['args'];
    const txHash = textOf(r, 'tx_hash') ?? '';
    const eventWallets = Array.isArray(r.wallets) ? r.wallets.map(String) : [];
    const contacts: EventContact[] = eventWallets.flatMap((wallet) => {
      const argument =
        Object.entries(args).find(([, v]) => typeof v === 'string' && v.toLowerCase() === wallet)?.[0] ?? '';
      return (contactsByWallet.get(wallet) ?? []).map((c) => ({ ...c, wallet, argument }));
    });
    const blockTime = r.block_time instanceof Date ? r.block_time : new Date(String(r.block_time));
    return {
      _id: textOf(r, 'id') ?? '',
      event_name: textOf(r, 'event_name') ?? '',
      args,
      block_number: textOf(r, 'block_number') ?? '0',
      block_time: blockTime.toISOString(),
      tx_hash: txHash,
      log_index: Number(r.log_index),
      tx_url: explorer ? `${explorer}/tx/${txHash}` : null,
      contacts,
    };
  });
  return { records, pagination: paginate(q.page, q.perPage, Number(totalRows[0]?.n ?? 0)) };
}
