/** `@porthole/recovery`: the recovery key service of the embedded wallet (README beside it). */
export {
  type CreateRecoveryAppParameters,
  createRecoveryApp,
  ID_TOKEN_MAX_AGE,
  LIMITS,
} from './app.js'
export { APPROVAL_COOLDOWN_MS, APPROVAL_TTL_MS } from './approvals.js'
export { productionProblems, type RecoveryConfig, resolveRecoveryConfig } from './config.js'
export { createIdTokenVerifier, type TrustedIssuer } from './idTokens.js'
export { createMailer, type Mailer } from './mail.js'
export {
  assertOwnFolder,
  DEFAULT_DATA_DIR,
  DEFAULT_KEY_FILE,
  ForeignSecretError,
  InvalidMasterKeyError,
  loadMasterKey,
  parseHexKey,
} from './masterKey.js'
export { decryptPayload, thumbprint, verifyProof } from './proof.js'
export {
  type StartRecoveryServiceParameters,
  startRecoveryService,
} from './startRecoveryService.js'
