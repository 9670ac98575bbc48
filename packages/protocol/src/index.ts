/**
 * Full entry (with zod): everything in `lite` plus the schemas, contracts, the frame side of
 * the handshake and zod-backed validators. Used by the modal and wallet frames; the modal's first
 * download checks what it receives with `Checks` (zod-free, kept equal to the schemas) instead.
 */
export * as Child from './Child.js'
export * from './contracts/hostModal.js'
export * from './contracts/modalWallet.js'
export * from './contracts/walletConstants.js'
export * as Checks from './guards/toModal.js'
export * from './lite.js'
export * from './schemas.js'
export type { ContractSchema, InferContract } from './types.js'
export { fromContract } from './validators.js'
