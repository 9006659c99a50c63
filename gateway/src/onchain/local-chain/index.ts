/**
 * The local development chain: anvil started on a port, DemoToken compiled with solc-js, deployed,
 * minted and transferred with viem (`npm start`, tests, benchmarks).
 */
export { type AnvilOptions, type LocalChain, anvilBinary, startAnvil } from './anvil';
export { type CompiledContract, compileDemoToken, compileSolidity, demoTokenArtifact } from './compile';
export {
  ANVIL_MNEMONIC,
  type ChainClients,
  type DemoToken,
  chainClients,
  deployDemoToken,
  devAccount,
  localChainDefinition,
  mintDemoToken,
  mintManyDemoToken,
  transferDemoToken,
} from './demo-token';
export { DEMO_TOKEN_SOURCE } from './demo-token-source';
