/** `@porthole/recovery`: the recovery key service of the embedded wallet (README beside it). */
export {
  type CreateRecoveryAppParameters,
  createRecoveryApp,
  LIMITS,
  TICKET_AUDIENCE,
} from './app.js'
export { DEFAULT_KEY_FILE, InvalidMasterKeyError, loadMasterKey, parseHexKey } from './masterKey.js'
export {
  type StartRecoveryServiceParameters,
  startRecoveryService,
} from './startRecoveryService.js'
