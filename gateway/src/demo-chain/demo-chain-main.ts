/**
 * `npm start`'s local chain (scripts/system.mjs runs this bundle, dist/demo-chain-main.mjs): anvil on
 * CHAIN_PORT (8545) with one-second blocks (transactions mined at once too), its state kept in the
 * gateway's data directory so the chain and the database move on together; the demo token deployed once
 * (ACME, minted to the first demo contacts so Acme DAO's feed has events) and described in
 * `local-chain/demo-chain.json` for the seed and `pnpm chain:activity`. Prints `LOCAL_CHAIN <json>` when
 * ready and runs until SIGTERM or SIGINT, which stop anvil (it writes its state on the way out).
 */
import path from 'node:path';
import { createPublicClient, getAddress, http } from 'viem';
import { GATEWAY_ROOT } from '../config';
import { deployDemoToken, devAccount, mintDemoToken, mintManyDemoToken, startAnvil } from './local-chain';
import { type DemoChain, demoChainDir, readDemoChain, writeDemoChain } from './demo-chain-file';
import { demoWallets } from './demo-wallets';

const CHAIN_ID = 31337;
const SYMBOL = 'ACME';
const UNIT = 10n ** 18n;
/** The demo contacts minted to at deployment, and how much each gets. */
const FIRST_HOLDERS = 12;

const port = Number(process.env.CHAIN_PORT ?? 8545);
const dataDir = path.resolve(process.env.GATEWAY_DATA_DIR || path.join(GATEWAY_ROOT, '.data'));
const stateFile = path.join(demoChainDir(dataDir), 'state.json');

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const chain = await startAnvil({
  port,
  blockTime: 1,
  chainId: CHAIN_ID,
  args: ['--mixed-mining', '--state', stateFile, '--state-interval', '300'],
}).catch((error: unknown) => {
  // One line the starter shows as its warning (a port in use, a missing binary).
  console.error(`Local chain: anvil could not start on port ${port}: ${messageOf(error)}`);
  process.exit(1);
});
let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await chain.stop();
  process.exit(code);
};
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
chain.proc.once('exit', (code) => {
  if (!stopping) {
    console.error(`Local chain: anvil exited (${code ?? 'signal'})`);
    process.exit(1);
  }
});

try {
  const client = createPublicClient({ transport: http(chain.url, { retryCount: 0 }) });
  const known = readDemoChain(dataDir);
  // The token is deployed once per chain: a chain restored from its state still has it.
  const deployed =
    known !== null &&
    known.chainId === CHAIN_ID &&
    (await client.getCode({ address: known.token.address })) !== undefined;
  let demo: DemoChain;
  if (known && deployed) demo = { ...known, url: chain.url };
  else {
    const token = await deployDemoToken(chain.url, { name: 'Acme Token', symbol: SYMBOL, chainId: CHAIN_ID });
    await mintDemoToken(chain.url, token, devAccount(0).address, 1_000_000n * UNIT);
    await mintManyDemoToken(chain.url, token, demoWallets().slice(0, FIRST_HOLDERS), 250n * UNIT);
    demo = {
      url: chain.url,
      chainId: CHAIN_ID,
      token: {
        address: getAddress(token.address),
        symbol: SYMBOL,
        decimals: 18,
        deployBlock: String(token.deployBlock),
        abi: [...token.abi],
      },
    };
  }
  writeDemoChain(dataDir, demo);
  const { abi: _abi, ...shown } = demo.token;
  console.log(`LOCAL_CHAIN ${JSON.stringify({ ...demo, token: shown })}`);
} catch (error) {
  console.error(
    `Local chain: the demo token could not be set up: ${error instanceof Error ? error.message : String(error)}`,
  );
  await stop(1);
}
