import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseAbiItem } from 'viem';
import { freePort } from '../../../test/processes';
import {
  type LocalChain,
  chainClients,
  compileDemoToken,
  deployDemoToken,
  devAccount,
  mintDemoToken,
  startAnvil,
  transferDemoToken,
} from './index';

let chain: LocalChain;
before(async () => {
  chain = await startAnvil({ port: await freePort() });
});
after(() => chain?.stop());

test('DemoToken compiles from source, deploys, mints (deployer only) and transfers', async () => {
  const artifact = compileDemoToken();
  assert.match(artifact.compiler, /^0\.8\.\d+/);
  assert.ok(artifact.bytecode.length > 100);
  const token = await deployDemoToken(chain.url, { artifact, symbol: 'TST' });
  const { public: client } = chainClients(chain.url);
  const read = (functionName: string, args: unknown[] = []) =>
    client.readContract({ address: token.address, abi: token.abi, functionName, args });
  assert.equal(await read('decimals'), 18);
  assert.equal(await read('symbol'), 'TST');

  const alice = devAccount(1).address;
  const bob = devAccount(2).address;
  await mintDemoToken(chain.url, token, alice, 1000n);
  await transferDemoToken(chain.url, token, 1, bob, 300n);
  assert.equal(await read('balanceOf', [alice]), 700n);
  assert.equal(await read('balanceOf', [bob]), 300n);

  // Only the deployer mints.
  const clients = chainClients(chain.url, 1);
  await assert.rejects(
    clients.wallet.writeContract({
      address: token.address,
      abi: token.abi,
      functionName: 'mint',
      args: [alice, 1n],
      account: devAccount(1),
      chain: clients.wallet.chain,
    }),
    /owner/,
  );

  const logs = await client.getLogs({
    address: token.address,
    event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
    fromBlock: token.deployBlock,
  });
  assert.deepEqual(
    logs.map((l) => [l.args.from, l.args.to, l.args.value]),
    [
      ['0x0000000000000000000000000000000000000000', alice, 1000n],
      [alice, bob, 300n],
    ],
  );
});

test('anvil mines on its own with a block time, and stops', async () => {
  const timed = await startAnvil({ port: await freePort(), blockTime: 1 });
  try {
    const { public: client } = chainClients(timed.url);
    const first = await client.getBlockNumber();
    await new Promise((r) => setTimeout(r, 1300));
    assert.ok((await client.getBlockNumber()) > first);
  } finally {
    await timed.stop();
  }
  assert.notEqual(timed.proc.exitCode ?? timed.proc.signalCode, null);
});
