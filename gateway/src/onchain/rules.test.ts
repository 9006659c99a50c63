import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpRequestError, RpcRequestError } from 'viem';
import { parseAbi } from '../contracts';
import { chainsOf } from '../lib/chain-settings';
import { rpcFailure } from './rpc';
import { backoffMs, nextRange, nextRangeSize, safeHead, tokenKindOf, transferDeltas, ZERO_ADDRESS } from './rules';

test('confirmed blocks and the next range', () => {
  // The block a log is in is its first confirmation.
  assert.equal(safeHead(100n, 1), 100n);
  assert.equal(safeHead(100n, 12), 89n);
  const rows: [bigint, bigint, number, { from: bigint; to: bigint } | null][] = [
    [-1n, 10n, 5, { from: 0n, to: 4n }],
    [4n, 10n, 100, { from: 5n, to: 10n }],
    [10n, 10n, 100, null],
    [12n, 10n, 100, null],
    [9n, 10n, 0, { from: 10n, to: 10n }],
  ];
  for (const [last, safe, size, expected] of rows)
    assert.deepEqual(nextRange(last, safe, size), expected, `${last} ${safe} ${size}`);
});

test('the range size adapts to what the node answers', () => {
  assert.equal(nextRangeSize(1000, 2000, 'too_many'), 500);
  assert.equal(nextRangeSize(1, 2000, 'too_many'), 1);
  assert.equal(nextRangeSize(1000, 2000, { logs: 10 }), 2000);
  assert.equal(nextRangeSize(2000, 2000, { logs: 10 }), 2000);
  assert.equal(nextRangeSize(1000, 2000, { logs: 600 }), 1000);
  assert.equal(nextRangeSize(1000, 2000, { logs: 3000 }), 500);
});

test('backoff doubles from 1 s up to the maximum', () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 10, 100].map((f) => backoffMs(f, 10)),
    [0, 1000, 2000, 4000, 8000, 10_000, 10_000],
  );
});

test('what a failed request means', () => {
  const http = (status: number, body = '') =>
    new HttpRequestError({ url: 'http://node', status, body: { method: 'eth_getLogs' }, details: body });
  assert.equal(rpcFailure(http(429)), 'rate_limited');
  assert.equal(rpcFailure(http(500, 'boom')), 'failed');
  assert.equal(
    rpcFailure(new RpcRequestError({ body: {}, url: 'x', error: { code: -32005, message: 'limit' } })),
    'rate_limited',
  );
  for (const message of [
    'query returned more than 10000 results',
    'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range',
    'eth_getLogs block range is too large',
    'exceed maximum block range: 5000',
  ])
    assert.equal(
      rpcFailure(new RpcRequestError({ body: {}, url: 'x', error: { code: -32000, message } })),
      'too_many_results',
      message,
    );
});

test('which Transfer keeps balances, and how it moves them', () => {
  const erc20 = parseAbi(
    JSON.stringify([
      {
        type: 'event',
        name: 'Transfer',
        inputs: [
          { name: 'from', type: 'address', indexed: true },
          { name: 'to', type: 'address', indexed: true },
          { name: 'value', type: 'uint256', indexed: false },
        ],
      },
    ]),
  ).events!;
  const erc721 = parseAbi(
    JSON.stringify([
      {
        type: 'event',
        name: 'Transfer',
        inputs: [
          { name: 'from', type: 'address', indexed: true },
          { name: 'to', type: 'address', indexed: true },
          { name: 'tokenId', type: 'uint256', indexed: true },
        ],
      },
    ]),
  ).events!;
  const sig = 'Transfer(address,address,uint256)';
  assert.equal(tokenKindOf(erc20, [sig]), 'erc20');
  assert.equal(tokenKindOf(erc721, [sig]), 'erc721');
  assert.equal(tokenKindOf(erc20, []), null);
  const a = '0x' + 'a'.repeat(40);
  const b = '0x' + 'b'.repeat(40);
  const moves = [
    { from: ZERO_ADDRESS, to: a, value: 10n },
    { from: a, to: b, value: 4n },
    { from: b, to: ZERO_ADDRESS, value: 1n },
  ];
  assert.deepEqual(
    [...transferDeltas('erc20', moves)],
    [
      [a, 6n],
      [b, 3n],
    ],
  );
  assert.deepEqual(
    [...transferDeltas('erc721', moves)],
    [
      [a, 0n],
      [b, 0n],
    ],
  );
});

test('CHAINS, and the local chain when unset', () => {
  assert.deepEqual(chainsOf({}), [
    { id: 31337, name: 'Local chain', rpcUrl: 'http://127.0.0.1:8545', explorerUrl: null },
  ]);
  assert.deepEqual(chainsOf({ LOCAL_CHAIN_URL: 'http://127.0.0.1:9545/' })[0]?.rpcUrl, 'http://127.0.0.1:9545');
  assert.deepEqual(
    chainsOf({
      CHAINS: '[{"id":1,"name":"Ethereum","rpc_url":"https://rpc.example","explorer_url":"https://etherscan.io/"}]',
    }),
    [{ id: 1, name: 'Ethereum', rpcUrl: 'https://rpc.example', explorerUrl: 'https://etherscan.io' }],
  );
  for (const bad of [
    '{',
    '{}',
    '[{"id":0,"name":"x","rpc_url":"http://a"}]',
    '[{"id":1,"name":"x","rpc_url":"ftp://a"}]',
    '[{"id":1,"name":"a","rpc_url":"http://a"},{"id":1,"name":"b","rpc_url":"http://b"}]',
  ])
    assert.throws(() => chainsOf({ CHAINS: bad }), /CHAINS/, bad);
});
