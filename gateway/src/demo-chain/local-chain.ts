// The on-chain area's local chain (anvil, the demo token): a development tool beside the area's API, which
// its index.ts serves. The one place this folder reaches into it.
// eslint-disable-next-line no-restricted-imports
export * from '../onchain/local-chain/index';
