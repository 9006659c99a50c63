/**
 * `pnpm chain:activity`: transfers the demo token to Acme DAO's demo contacts' wallets on the local chain
 * `npm start` runs, so the Smart Contracts feed and on-chain segments have something new to show.
 *
 *   pnpm chain:activity              10 transfers, one a second, to demo contacts picked at random
 *   pnpm chain:activity 25           25 transfers
 *   pnpm chain:activity --forever    until Ctrl+C
 *   pnpm chain:activity --to 0xabc…  one transfer to that wallet
 *
 * The chain is the one described in the gateway's data directory (GATEWAY_DATA_DIR, default gateway/.data).
 */
import path from 'node:path';
import { formatUnits, getAddress, isAddress, type Abi, type Address } from 'viem';
import { GATEWAY_ROOT } from '../config';
import { readDemoChain } from './demo-chain-file';
import { demoWallets } from './demo-wallets';
import { transferDemoToken } from './local-chain';

const args = process.argv.slice(2);
const dataDir = path.resolve(process.env.GATEWAY_DATA_DIR || path.join(GATEWAY_ROOT, '.data'));
const chain = readDemoChain(dataDir);
if (!chain) {
  console.error(`No local chain in ${dataDir}: start the console with \`npm start\` first.`);
  process.exit(1);
}
const to = args.includes('--to') ? args[args.indexOf('--to') + 1] : undefined;
if (to !== undefined && !isAddress(to, { strict: false })) {
  console.error(`--to: not a wallet address: ${to}`);
  process.exit(1);
}
const forever = args.includes('--forever');
const count = to ? 1 : Number(args.find((a) => /^\d+$/.test(a)) ?? 10);
const wallets: Address[] = to ? [getAddress(to)] : demoWallets();
// The ABI the runner wrote (read from the file: its parse boundary).
const token = { address: chain.token.address, abi: chain.token.abi as Abi, deployBlock: 0n };
const unit = 10n ** BigInt(chain.token.decimals);

let stop = false;
process.on('SIGINT', () => (stop = true));
for (let i = 0; (forever || i < count) && !stop; i += 1) {
  const wallet = wallets[Math.floor(Math.random() * wallets.length)] ?? wallets[0];
  if (!wallet) break;
  const amount = BigInt(1 + Math.floor(Math.random() * 100)) * unit;
  try {
    const hash = await transferDemoToken(chain.url, token, 0, wallet, amount);
    console.log(`${formatUnits(amount, chain.token.decimals)} ${chain.token.symbol} to ${wallet} (${hash})`);
  } catch (error) {
    console.error(`The transfer failed (is \`npm start\` running?): ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
  if (forever || i < count - 1) await new Promise((r) => setTimeout(r, 1000));
}
