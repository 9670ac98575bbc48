/**
 * Entry of `sdk-calls.js`, the part of the script-tag SDK no page needs before its visitor's
 * click: where calls run (the providers' routing, the modal's calls on injected wallets), the
 * Solana and Bitcoin adapters and headless mode. sdk-chains.js loads it on the first call, when
 * the modal opens, or when an injected wallet is connected, and reads `window.PortholeCalls`;
 * the npm build imports the same module dynamically.
 */
export { createCalls } from './internal/calls.js'
export { createHeadless } from './internal/headless.js'
