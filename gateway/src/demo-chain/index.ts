/** The local development chain `npm start` runs, and what the seed and `pnpm chain:activity` read of it. */
export { type DemoChain, readDemoChain, writeDemoChain, demoChainDir } from './demo-chain-file';
export { seedDemoContract, DEMO_WATCHED_EVENTS } from './seed-demo-contract';
export { demoWallets } from './demo-wallets';
