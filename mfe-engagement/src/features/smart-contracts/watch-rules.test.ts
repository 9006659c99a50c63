import { ONCHAIN_MESSAGES } from '@console/shared/contracts';
import {
  EMPTY_ABI_PICKER,
  abiPickerReducer,
  argumentFormat,
  blockProgress,
  pickedEvents,
  toWatchInput,
  type AbiPickerAction,
  type WatchFormValues,
} from './watch-rules';
import { APPROVAL, CONTRACT, ERC20_ABI, TRANSFER } from './test-data';

const run = (...actions: AbiPickerAction[]) => actions.reduce(abiPickerReducer, EMPTY_ABI_PICKER);

describe('the ABI picker as the ABI is typed', () => {
  test('Transfer is picked by default, and follows the ABI until the user picks', () => {
    expect(pickedEvents(run({ type: 'abi', abi: ERC20_ABI }))).toEqual([TRANSFER]);
    const withoutTransfer = JSON.stringify(JSON.parse(ERC20_ABI).slice(1));
    expect(pickedEvents(run({ type: 'abi', abi: ERC20_ABI }, { type: 'abi', abi: withoutTransfer }))).toEqual([]);
  });
  test("the user's picks survive an invalid text in between", () => {
    const state = run(
      { type: 'abi', abi: ERC20_ABI },
      { type: 'toggle', signature: TRANSFER, on: false },
      { type: 'toggle', signature: APPROVAL, on: true },
      { type: 'abi', abi: `${ERC20_ABI}x` },
    );
    expect(state.problem).toBe(ONCHAIN_MESSAGES.abi);
    expect(pickedEvents(state)).toEqual([]);
    expect(pickedEvents(abiPickerReducer(state, { type: 'abi', abi: ERC20_ABI }))).toEqual([APPROVAL]);
  });
  test('an empty text shows no problem', () => {
    expect(run({ type: 'abi', abi: 'x' }, { type: 'abi', abi: '  ' }).problem).toBeNull();
  });
});

describe('the watch form', () => {
  const values = (over: Partial<WatchFormValues> = {}): WatchFormValues => ({
    chainId: 31337,
    address: CONTRACT.address,
    name: 'Acme token',
    abi: run({ type: 'abi', abi: ERC20_ABI }),
    startBlock: '',
    confirmations: '1',
    ...over,
  });
  test.each<[string, Partial<WatchFormValues>, Record<string, string>]>([
    ['no chain', { chainId: null }, { chain_id: ONCHAIN_MESSAGES.chain }],
    ['a short address', { address: '0x1234' }, { address: ONCHAIN_MESSAGES.address }],
    ['no name', { name: '  ' }, { name: ONCHAIN_MESSAGES.name }],
    ['no ABI', { abi: EMPTY_ABI_PICKER }, { abi: ONCHAIN_MESSAGES.abi }],
    ['a negative start block', { startBlock: '-1' }, { start_block: ONCHAIN_MESSAGES.startBlock }],
    ['zero confirmations', { confirmations: '0' }, { confirmations: ONCHAIN_MESSAGES.confirmations }],
    ['confirmations not a number', { confirmations: '2x' }, { confirmations: ONCHAIN_MESSAGES.confirmations }],
  ])('%s', (_, over, errors) => {
    expect(toWatchInput(values(over))).toEqual({ errors });
  });
  test('a complete form makes the request; an empty start block is left to the gateway (the head)', () => {
    expect(toWatchInput(values({ startBlock: ' 12 ', confirmations: '3' }))).toEqual({
      input: {
        chain_id: 31337,
        address: CONTRACT.address,
        name: 'Acme token',
        abi: ERC20_ABI,
        events: [TRANSFER],
        start_block: '12',
        confirmations: 3,
      },
    });
    expect(toWatchInput(values())).not.toHaveProperty('input.start_block');
  });
});

test.each([
  ['120', '121', '120 of 121 (1 behind)'],
  ['1200', '1200', '1,200 of 1,200'],
  ['5', null, '5 (head unknown)'],
])('blockProgress(%s, %s) = %s', (last, head, text) => {
  expect(blockProgress(last, head)).toBe(text);
});

describe('token amounts in the feed', () => {
  test('the amount of Transfer and Approval reads in whole tokens with the symbol', () => {
    const format = argumentFormat(CONTRACT);
    expect(format('Transfer', 'value', '1500000000000000000')).toEqual({
      text: '1.5 ACME',
      raw: '1500000000000000000',
    });
    expect(format('Approval', 'value', '1')).toEqual({ text: '0.000000000000000001 ACME', raw: '1' });
    expect(format('Transfer', 'to', '0xabc')).toEqual({ text: '0xabc', raw: null });
  });

  test('an ERC-721 token id and a contract without balances read as decoded', () => {
    const nft = argumentFormat({ ...CONTRACT, token: { symbol: 'PUNK', decimals: 0 } });
    expect(nft('Transfer', 'value', '42')).toEqual({ text: '42', raw: null });
    const plain = argumentFormat({ ...CONTRACT, token: null });
    expect(plain('Transfer', 'value', '5000000000000000000')).toEqual({ text: '5000000000000000000', raw: null });
  });
});
