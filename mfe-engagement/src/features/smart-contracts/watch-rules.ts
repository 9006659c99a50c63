/**
 * The rules of the Smart Contracts screen, pure: the ABI picker's state as the ABI is typed, the events
 * offered by default, the watch form's checks (the contract's own schema and parseAbi, which the gateway
 * applies too), and how addresses, states and block progress read.
 */
import {
  ONCHAIN_MESSAGES,
  WatchContractInput,
  parseAbi,
  unitsToTokenAmount,
  type AbiEvent,
  type WatchedContractDetail,
  type WatchState,
} from '@console/shared/contracts';

// ---------------------------------------------------------------------------------------------
// The ABI picker: the pasted ABI, its events, and the events picked from them
// ---------------------------------------------------------------------------------------------

export interface AbiPickerState {
  abi: string;
  /** The events of the last ABI that parsed (kept while the text is being edited into another valid one). */
  events: AbiEvent[];
  /** parseAbi's message for the current text; null when it parses or is empty. */
  problem: string | null;
  /** Signatures picked. Only those among `events` count ({@link pickedEvents}). */
  picked: string[];
  /** The user has changed the picks: later ABIs keep them instead of the default. */
  touched: boolean;
}

export type AbiPickerAction = { type: 'abi'; abi: string } | { type: 'toggle'; signature: string; on: boolean };

export const EMPTY_ABI_PICKER: AbiPickerState = { abi: '', events: [], problem: null, picked: [], touched: false };

/** Transfer (ERC-20 and ERC-721 alike) is what most communities watch: picked by default when the ABI has it. */
export function defaultPicks(events: readonly AbiEvent[]): string[] {
  return events.filter((e) => e.name === 'Transfer').map((e) => e.signature);
}

/**
 * The ABI is checked as it is typed. A text that parses replaces the events offered; until the user picks,
 * the picks follow the ABI (Transfer by default), afterwards the user's picks are kept, so a keystroke that
 * leaves the ABI valid (or passes through an invalid text) loses nothing. An empty text shows no problem.
 */
export function abiPickerReducer(state: AbiPickerState, action: AbiPickerAction): AbiPickerState {
  if (action.type === 'toggle') {
    const rest = state.picked.filter((s) => s !== action.signature);
    return { ...state, picked: action.on ? [...rest, action.signature] : rest, touched: true };
  }
  if (action.abi.trim() === '') return { ...state, abi: action.abi, events: [], problem: null };
  const parsed = parseAbi(action.abi);
  if (parsed.problem !== null) return { ...state, abi: action.abi, events: [], problem: parsed.problem };
  return {
    ...state,
    abi: action.abi,
    events: parsed.events,
    problem: null,
    picked: state.touched ? state.picked : defaultPicks(parsed.events),
  };
}

/** The picked signatures among the events offered, in the ABI's order. */
export function pickedEvents(state: Pick<AbiPickerState, 'events' | 'picked'>): string[] {
  return state.events.filter((e) => state.picked.includes(e.signature)).map((e) => e.signature);
}

/** An event's arguments as a line: `from (address, indexed), to (address, indexed), value (uint256)`. */
export function describeArguments(event: Pick<AbiEvent, 'inputs'>): string {
  if (event.inputs.length === 0) return 'No arguments';
  return event.inputs
    .map((input, i) => `${input.name || `argument ${i + 1}`} (${input.type}${input.indexed ? ', indexed' : ''})`)
    .join(', ');
}

// ---------------------------------------------------------------------------------------------
// The watch form
// ---------------------------------------------------------------------------------------------

export const WATCH_FIELDS = ['chain_id', 'address', 'name', 'abi', 'events', 'start_block', 'confirmations'] as const;
export type WatchField = (typeof WATCH_FIELDS)[number];
export type WatchErrors = Partial<Record<WatchField, string>>;

export interface WatchFormValues {
  chainId: number | null;
  address: string;
  name: string;
  abi: AbiPickerState;
  /** As typed; empty: the chain's head when saved. */
  startBlock: string;
  confirmations: string;
}

const DIGITS = /^\d{1,20}$/;

/**
 * The request the form makes, or the first problem per field: the contract's schema (the gateway checks
 * with the same one), parseAbi for the ABI, and the picks among the ABI's events.
 */
export function toWatchInput(values: WatchFormValues): { input: WatchContractInput } | { errors: WatchErrors } {
  const errors: WatchErrors = {};
  const startBlock = values.startBlock.trim();
  const confirmations = values.confirmations.trim();
  const events = pickedEvents(values.abi);
  const input: WatchContractInput = {
    chain_id: values.chainId ?? -1,
    address: values.address.trim(),
    name: values.name.trim(),
    abi: values.abi.abi,
    events,
    confirmations: DIGITS.test(confirmations) ? Number(confirmations) : -1,
    ...(startBlock === '' ? {} : { start_block: startBlock }),
  };
  const parsed = WatchContractInput.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = WATCH_FIELDS.find((f) => f === issue.path[0]);
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  if (values.chainId === null) errors.chain_id = ONCHAIN_MESSAGES.chain;
  else delete errors.chain_id;
  if (errors.start_block) errors.start_block = ONCHAIN_MESSAGES.startBlock;
  if (errors.confirmations || !DIGITS.test(confirmations)) errors.confirmations = ONCHAIN_MESSAGES.confirmations;
  const abi = parseAbi(values.abi.abi);
  if (abi.problem !== null) {
    errors.abi = values.abi.abi.trim() === '' ? ONCHAIN_MESSAGES.abi : abi.problem;
    delete errors.events;
  } else if (events.length === 0) errors.events = ONCHAIN_MESSAGES.events;
  return Object.keys(errors).length > 0 ? { errors } : { input };
}

// ---------------------------------------------------------------------------------------------
// How things read
// ---------------------------------------------------------------------------------------------

export const STATE_LABELS: Record<WatchState, string> = {
  catching_up: 'Catching up',
  live: 'Live',
  error: 'Error',
  paused: 'Paused',
};

/** A block number (a decimal string) with thousands separators. */
export function formatBlock(block: string): string {
  return /^\d+$/.test(block) ? BigInt(block).toLocaleString('en-US') : block;
}

/** The last block processed against the chain's head: `1,200 of 1,205 (5 behind)`. */
export function blockProgress(lastBlock: string, headBlock: string | null): string {
  if (headBlock === null || !/^\d+$/.test(headBlock) || !/^\d+$/.test(lastBlock))
    return `${formatBlock(lastBlock)} (head unknown)`;
  const behind = BigInt(headBlock) - BigInt(lastBlock);
  const tail = behind > 0n ? ` (${behind.toLocaleString('en-US')} behind)` : '';
  return `${formatBlock(lastBlock)} of ${formatBlock(headBlock)}${tail}`;
}

/** The feed refreshes while the watcher is moving (live or catching up); paused and failing contracts do not. */
export function feedPolls(state: WatchState): boolean {
  return state === 'live' || state === 'catching_up';
}

/** How often a moving contract's page is fetched again (only while the page is visible). */
export const FEED_POLL_MS = 3000;

// ---------------------------------------------------------------------------------------------
// Token amounts in the feed
// ---------------------------------------------------------------------------------------------

/** EIP-20's events whose third argument is an amount of the token. */
const AMOUNT_EVENTS = ['Transfer(address,address,uint256)', 'Approval(address,address,uint256)'];

/** How the feed shows an argument: an amount of the contract's token, or its value as decoded. */
export type ArgumentFormat = (
  eventName: string,
  argument: string,
  value: string,
) => { text: string; raw: string | null };

/**
 * For a token with decimals (ERC-20; an ERC-721's third argument is a token id, not an amount), the
 * amount argument of Transfer and Approval reads in whole tokens with the symbol ("1.5 ACME"), its
 * smallest-unit integer kept as `raw`; every other argument reads as decoded.
 */
export function argumentFormat(contract: Pick<WatchedContractDetail, 'token' | 'abi_events'>): ArgumentFormat {
  const token = contract.token;
  const amounts = new Map<string, string>();
  if (token && token.decimals > 0)
    for (const event of contract.abi_events)
      if (AMOUNT_EVENTS.includes(event.signature)) amounts.set(event.name, event.inputs[2]?.name || '_2');
  return (eventName, argument, value) => {
    if (amounts.get(eventName) !== argument || !token || !/^\d+$/.test(value)) return { text: value, raw: null };
    const amount = unitsToTokenAmount(value, token.decimals);
    return { text: token.symbol ? `${amount} ${token.symbol}` : amount, raw: value };
  };
}
