/** `@porthole/relay`: a WalletConnect relay for loopback development and tests (README beside it). */
export { checkToken } from './auth.js'
export { MAX_PER_TOPIC, openMailbox, type StoredMessage } from './mailbox.js'
export { type Relay, type RelayStats, type StartRelayParameters, startRelay } from './startRelay.js'
