/** `@porthole/recovery`: the recovery key service of the embedded wallet (README beside it). */
export {
  type CreateRecoveryAppParameters,
  createRecoveryApp,
  ID_TOKEN_MAX_AGE,
  LIMITS,
} from './app.js'
export { APPROVAL_COOLDOWN_MS, APPROVAL_TTL_MS, type ApprovalStatus } from './approvals.js'
export {
  InvalidConfigError,
  ProductionConfigError,
  productionProblems,
  type RecoveryConfig,
  resolveRecoveryConfig,
} from './config.js'
export {
  type FarcasterCheck,
  farcasterIdentity,
  InvalidFarcasterSignInError,
  RegistryUnavailableError,
  verifyFarcasterOwner,
} from './farcaster.js'
export {
  createIdTokenVerifier,
  InvalidIdTokenError,
  IssuerUnavailableError,
  type TrustedIssuer,
} from './idTokens.js'
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
export {
  DECRYPT_PROOF_PREFIX,
  DevicePublicKey,
  decryptPayload,
  thumbprint,
  verifyProof,
} from './proof.js'
export { SEAL_VERSION } from './seal.js'
export { createSiteCheck, type SiteCheck, SiteCheckUnavailableError } from './sites.js'
export {
  type StartRecoveryServiceParameters,
  type StartRecoveryServiceReturnType,
  startRecoveryService,
} from './startRecoveryService.js'
