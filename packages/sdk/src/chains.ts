/**
 * Entry of `sdk-chains.js`, the part of the script-tag SDK that no page needs before its first
 * click unless it has Solana or Bitcoin networks: where calls run (the providers' routing, the
 * modal's calls on injected wallets), Wallet Standard discovery and the Solana and Bitcoin
 * adapters. `sdk.js` loads it from its own origin with Subresource Integrity (the hash is baked
 * into `sdk.js` at build time) and reads `window.PortholeChains`; the npm build imports the
 * same module dynamically.
 */
export { createCalls } from './internal/calls.js'
export { frameCheck } from './internal/frameCheck.js'
export { startChains } from './internal/startChains.js'
