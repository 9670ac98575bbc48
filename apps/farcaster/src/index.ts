/**
 * `@porthole/farcaster`: a local stand-in for Farcaster's auth relay (Sign In With Farcaster
 * "connect" channels) and a test Farcaster wallet that answers its channels, for development and
 * tests.
 */
export {
  type CreateFarcasterRelayAppParameters,
  createFarcasterRelayApp,
  RELAY_DEFAULTS,
} from './app.js'
export type { Channel, ChannelAnswer } from './channels.js'
export {
  FarcasterRelayPortInUseError,
  type StartFarcasterRelayParameters,
  type StartFarcasterRelayReturnType,
  startFarcasterRelay,
} from './startFarcasterRelay.js'
export {
  type ApproveChannelParameters,
  type ApproveChannelReturnType,
  approveChannel,
  FarcasterRequestRefusedError,
  type RegisterFidParameters,
  registerFid,
} from './testClient.js'
