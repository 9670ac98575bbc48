/**
 * Entry of `sdk-chains.js`, the part of the script-tag SDK that sdk.js loads at start, beside
 * the modal frame: injected-wallet discovery (EIP-6963, `window.ethereum`, Wallet Standard for
 * Solana and Bitcoin), so the Connect view lists the page's wallets in its first frame, and the
 * loader of `sdk-calls.js`, where calls run. `sdk.js` loads it from its own origin with
 * Subresource Integrity (the hash is baked into `sdk.js` at build time) and reads
 * `window.PortholeChains`; the npm build imports the same module dynamically.
 */
export { frameCheck } from './internal/frameCheck.js'
export { startChains } from './internal/startChains.js'
