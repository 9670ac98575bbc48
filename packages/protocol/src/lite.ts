/**
 * zod-free entry: the channel, the parent side of the handshake, errors, constants, guards and
 * the contract types. The SDK imports only this.
 */
export * as Channel from './Channel.js'
export * from './constants.js'
export type {
  CaipNetworkId,
  ChainNamespace,
  ConnectionStatus,
  ConnectorInfo,
  ConnectorType,
  ConnectResult,
  Features,
  HeadlessWallet,
  HostToModal,
  InjectedEventName,
  InjectedProviderInfo,
  Metadata,
  ModalConfig,
  ModalToHost,
  NetworkInput,
  OpenableView,
  PortholeState,
  ProviderEvent,
} from './contracts/hostModal.js'
export * from './errors.js'
export { isReady, parseAck, parseEnvelope } from './guards/envelope.js'
export {
  isConnectResult,
  isHeadlessWallets,
  isPortholeState,
  modalToHostValidator,
} from './guards/hostModal.js'
export * as Parent from './Parent.js'
export type { ErrorObject } from './schemas.js'
export type { Contract, Validator } from './types.js'
