/**
 * Smart-contract monitoring (spec section 2: engagement/smart-contracts, permission and feature
 * monitor_smart_contracts): the chains the gateway reads, the contracts a tenant watches, their decoded
 * events and the ABI rule both the console and the gateway apply. docs/onchain.md has the watcher's rules
 * (ranges, checkpoint, confirmations, reorgs).
 */
import * as z from 'zod/mini';
import { listQuery, page, text } from '@console/shared/contracts/core';

export const ONCHAIN_LIMITS = { name: 100, abi: 200_000, confirmations: 1000 } as const;

export const ONCHAIN_MESSAGES = {
  name: 'Enter a name.',
  address: 'Enter the contract address (0x followed by 40 hexadecimal characters).',
  abi: "Paste the contract's ABI as JSON.",
  abiNoEvents: 'This ABI declares no events.',
  events: 'Choose at least one event.',
  unknownEvent: 'Choose events from the ABI.',
  chain: 'Choose a chain.',
  startBlock: 'Enter a block number (0 or more).',
  confirmations: `Enter a number from 1 to ${ONCHAIN_LIMITS.confirmations}.`,
  duplicate: 'This contract is already watched on this chain.',
  limit: 'Your plan watches at most {limit} smart contracts.',
  deleted: 'Contract no longer watched.',
} as const;

// ---------------------------------------------------------------------------------------------
// The ABI rule: what a pasted ABI must hold, and the events it offers
// ---------------------------------------------------------------------------------------------

export interface AbiEventInput {
  name: string;
  type: string;
  indexed: boolean;
}
export interface AbiEvent {
  name: string;
  /** The canonical signature, `Transfer(address,address,uint256)`: what `events` holds. */
  signature: string;
  inputs: AbiEventInput[];
}

const SOLIDITY_TYPE =
  /^(?:address|bool|string|bytes(?:[1-9]|[12]\d|3[0-2])?|u?int(?:8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)?|tuple)(?:\[\d*\])*$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

interface AbiParameter {
  name?: unknown;
  type?: unknown;
  indexed?: unknown;
  components?: unknown;
}

/** A parameter's canonical type (tuples spelled out as `(t1,t2)` with their array suffix), or null when malformed. */
function canonicalType(p: AbiParameter): string | null {
  if (typeof p.type !== 'string' || !SOLIDITY_TYPE.test(p.type)) return null;
  if (!p.type.startsWith('tuple')) return p.type === 'uint' ? 'uint256' : p.type === 'int' ? 'int256' : p.type;
  if (!Array.isArray(p.components)) return null;
  const inner = (p.components as AbiParameter[]).map(canonicalType);
  if (inner.some((t) => t === null)) return null;
  return `(${inner.join(',')})${p.type.slice('tuple'.length)}`;
}

/**
 * Parses a pasted ABI (a JSON array of Solidity ABI items, or an object with an `abi` array as compilers
 * and explorers export it) and lists its events. `problem` is the message to show when it is not usable.
 */
export function parseAbi(source: string): { events: AbiEvent[]; problem: null } | { events: null; problem: string } {
  if (source.length > ONCHAIN_LIMITS.abi) return { events: null, problem: ONCHAIN_MESSAGES.abi };
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch {
    return { events: null, problem: ONCHAIN_MESSAGES.abi };
  }
  const items =
    parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Array.isArray((parsed as { abi?: unknown }).abi)
      ? (parsed as { abi: unknown[] }).abi
      : parsed;
  if (
    !Array.isArray(items) ||
    items.some((i) => !i || typeof i !== 'object' || typeof (i as { type?: unknown }).type !== 'string')
  )
    return { events: null, problem: ONCHAIN_MESSAGES.abi };
  const events: AbiEvent[] = [];
  for (const item of items as { type: string; name?: unknown; inputs?: unknown; anonymous?: unknown }[]) {
    if (item.type !== 'event') continue;
    if (typeof item.name !== 'string' || !IDENTIFIER.test(item.name) || !Array.isArray(item.inputs))
      return { events: null, problem: ONCHAIN_MESSAGES.abi };
    // Anonymous events have no topic to filter on: not offered.
    if (item.anonymous === true) continue;
    const inputs: AbiEventInput[] = [];
    const types: string[] = [];
    for (const input of item.inputs as AbiParameter[]) {
      const type = input && typeof input === 'object' ? canonicalType(input) : null;
      if (type === null) return { events: null, problem: ONCHAIN_MESSAGES.abi };
      types.push(type);
      inputs.push({ name: typeof input.name === 'string' ? input.name : '', type, indexed: input.indexed === true });
    }
    const signature = `${item.name}(${types.join(',')})`;
    if (!events.some((e) => e.signature === signature)) events.push({ name: item.name, signature, inputs });
  }
  if (!events.length) return { events: null, problem: ONCHAIN_MESSAGES.abiNoEvents };
  return { events, problem: null };
}

/** An address as the user typed it: `0x` and 40 hexadecimal characters (checksum checked by the gateway). */
export const CONTRACT_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

/** GET /v1/onchain/chains: the chains the gateway is configured to read. */
export const Chain = z.object({
  id: z.int(),
  name: z.string(),
  /** `https://…` of a block explorer; a transaction's page is `{explorer_url}/tx/{hash}`. */
  explorer_url: z.nullable(z.string()),
  /** The chain's head as last read, as a decimal string; null when the RPC did not answer. */
  head_block: z.nullable(z.string()),
});
export type Chain = z.infer<typeof Chain>;
export const ChainList = z.object({ records: z.array(Chain) });
export type ChainList = z.infer<typeof ChainList>;

export const WATCH_STATES = ['catching_up', 'live', 'error', 'paused'] as const;
export type WatchState = (typeof WATCH_STATES)[number];

export const WatchedContract = z.object({
  _id: z.string(),
  chain_id: z.int(),
  chain_name: z.string(),
  /** EIP-55 checksummed. */
  address: z.string(),
  name: z.string(),
  /** The watched events' signatures. */
  events: z.array(z.string()),
  start_block: z.string(),
  confirmations: z.int(),
  state: z.enum(WATCH_STATES),
  /** The RPC's message when `state` is `error` (or while backing off). */
  last_error: z.nullable(z.string()),
  /** The checkpoint: every block up to it is processed (decimal strings). */
  last_block: z.string(),
  head_block: z.nullable(z.string()),
  /** Set when balances are kept from Transfer events. */
  token: z.nullable(z.object({ symbol: z.nullable(z.string()), decimals: z.int() })),
  /** Events in the feed. */
  event_count: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WatchedContract = z.infer<typeof WatchedContract>;

/** GET /v1/onchain/contracts/{id}: the contract with its ABI's events (for editing the watched set). */
export const WatchedContractDetail = z.extend(WatchedContract, {
  abi_events: z.array(
    z.object({
      name: z.string(),
      signature: z.string(),
      inputs: z.array(z.object({ name: z.string(), type: z.string(), indexed: z.boolean() })),
    }),
  ),
});
export type WatchedContractDetail = z.infer<typeof WatchedContractDetail>;

export const WATCHED_CONTRACT_SORT_FIELDS = ['created_at', 'name', 'state'] as const;
export const WatchedContractListQuery = listQuery(WATCHED_CONTRACT_SORT_FIELDS, 'created_at');
export type WatchedContractListQuery = z.infer<typeof WatchedContractListQuery>;
export const WatchedContractPage = page(WatchedContract);
export type WatchedContractPage = z.infer<typeof WatchedContractPage>;

/** GET /v1/onchain/quota: contracts watched and the plan's limit (spec section 9's cards). */
export const OnchainQuota = z.object({ used: z.int(), limit: z.int() });
export type OnchainQuota = z.infer<typeof OnchainQuota>;

/** POST /v1/onchain/contracts. Errors: 400 with field errors; 409 `duplicate`; 403 over the plan's limit. */
export const WatchContractInput = z.object({
  chain_id: z.int(),
  address: text(42, ONCHAIN_MESSAGES.address).check(z.trim(), z.regex(CONTRACT_ADDRESS, ONCHAIN_MESSAGES.address)),
  name: text(ONCHAIN_LIMITS.name, `Use at most ${ONCHAIN_LIMITS.name} characters.`).check(
    z.trim(),
    z.minLength(1, ONCHAIN_MESSAGES.name),
  ),
  /** The ABI as pasted (JSON text), checked with parseAbi. */
  abi: text(ONCHAIN_LIMITS.abi, ONCHAIN_MESSAGES.abi),
  /** Signatures from the ABI's events. */
  events: z.array(text(500)).check(z.minLength(1, ONCHAIN_MESSAGES.events), z.maxLength(50)),
  /** Decimal string or number; default: the chain's head when saved. */
  start_block: z.optional(z.union([z.int().check(z.minimum(0)), z.string().check(z.regex(/^\d{1,20}$/))])),
  confirmations: z._default(z.int().check(z.minimum(1), z.maximum(ONCHAIN_LIMITS.confirmations)), 1),
});
export type WatchContractInput = z.input<typeof WatchContractInput>;

/** PATCH /v1/onchain/contracts/{id}: rename, change the watched events or confirmations, pause or resume. */
export const WatchContractPatch = z.object({
  name: z.optional(z.pick(WatchContractInput, { name: true }).shape.name),
  events: z.optional(z.array(text(500)).check(z.minLength(1, ONCHAIN_MESSAGES.events), z.maxLength(50))),
  confirmations: z.optional(z.int().check(z.minimum(1), z.maximum(ONCHAIN_LIMITS.confirmations))),
  paused: z.optional(z.boolean()),
});
export type WatchContractPatch = z.infer<typeof WatchContractPatch>;

/** A contact an event concerns: its wallet was one of the event's address arguments. */
export const EventContact = z.object({
  _id: z.string(),
  email: z.nullable(z.string()),
  wallet: z.string(),
  /** The argument that named the wallet (`to`, `from`, …). */
  argument: z.string(),
});
export type EventContact = z.infer<typeof EventContact>;

/** One decoded, confirmed event in a contract's feed. Integers are decimal strings. */
export const ContractEvent = z.object({
  _id: z.string(),
  event_name: z.string(),
  args: z.record(z.string(), z.union([z.string(), z.boolean(), z.array(z.string())])),
  block_number: z.string(),
  block_time: z.string(),
  tx_hash: z.string(),
  log_index: z.int(),
  /** `{explorer}/tx/{hash}`, or null when the chain has no explorer. */
  tx_url: z.nullable(z.string()),
  contacts: z.array(EventContact),
});
export type ContractEvent = z.infer<typeof ContractEvent>;

/** GET /v1/onchain/contracts/{id}/events: newest first; `event` filters by event name. */
export const ContractEventListQuery = z.extend(listQuery(['block_number'] as const, 'block_number'), {
  event: z.optional(text(100)),
});
export type ContractEventListQuery = z.infer<typeof ContractEventListQuery>;
export const ContractEventPage = page(ContractEvent);
export type ContractEventPage = z.infer<typeof ContractEventPage>;
