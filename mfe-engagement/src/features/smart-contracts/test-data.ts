/** Data the Smart Contracts tests share: an ERC-20's ABI as solc exports it, a watched contract, an event. */
import type { ContractEvent, WatchedContractDetail } from '@console/shared/contracts';

export const ERC20_ABI = JSON.stringify([
  {
    type: 'event',
    name: 'Transfer',
    anonymous: false,
    inputs: [
      { name: 'from', type: 'address', indexed: true },
      { name: 'to', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
    ],
  },
  {
    type: 'event',
    name: 'Approval',
    anonymous: false,
    inputs: [
      { name: 'owner', type: 'address', indexed: true },
      { name: 'spender', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
    ],
  },
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
]);

export const TRANSFER = 'Transfer(address,address,uint256)';
export const APPROVAL = 'Approval(address,address,uint256)';

export const CONTRACT: WatchedContractDetail = {
  _id: 'w1',
  chain_id: 31337,
  chain_name: 'Local chain',
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  name: 'Acme token',
  events: [TRANSFER],
  start_block: '1',
  confirmations: 1,
  state: 'live',
  last_error: null,
  last_block: '120',
  head_block: '121',
  token: { symbol: 'ACME', decimals: 18 },
  event_count: 1,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  abi_events: [
    {
      name: 'Transfer',
      signature: TRANSFER,
      inputs: [
        { name: 'from', type: 'address', indexed: true },
        { name: 'to', type: 'address', indexed: true },
        { name: 'value', type: 'uint256', indexed: false },
      ],
    },
    {
      name: 'Approval',
      signature: APPROVAL,
      inputs: [
        { name: 'owner', type: 'address', indexed: true },
        { name: 'spender', type: 'address', indexed: true },
        { name: 'value', type: 'uint256', indexed: false },
      ],
    },
  ],
};

export const EVENT: ContractEvent = {
  _id: 'e1',
  event_name: 'Transfer',
  args: {
    from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    to: '0x52908400098527886E0F7030069857D2E4169EE7',
    value: '5000000000000000000',
  },
  block_number: '118',
  block_time: '2026-11-29T16:00:00.000Z',
  tx_hash: '0x8f1c3e1b7a2d4c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6',
  log_index: 0,
  tx_url: 'https://explorer.test/tx/0x8f1c3e1b7a2d4c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6',
  contacts: [
    { _id: 'c1', email: 'ann@example.com', wallet: '0x52908400098527886e0f7030069857d2e4169ee7', argument: 'to' },
  ],
};
