/**
 * Farcaster login (spec §2 ConnectingFarcaster): the wallet frame opens a Sign In With Farcaster
 * channel on the auth relay and hands back its `farcaster://connect` link (shown as a QR code and
 * a link); the user's Farcaster app signs the message with the account's custody key; the frame
 * waits for that answer, the API checks it (and the fid's custody on chain), and the wallet
 * connects as a social login does.
 */
import { BaseError, UserRejectedRequestError } from '@porthole/protocol'
import { walletRequest } from '../wallet/frame.js'
import { assertCanSignIn, completeLogin } from './auth.js'

/** The spec's error for a failed Farcaster login (§8). */
export const FARCASTER_FAILED = 'Failed to connect to farcaster'

/** Options of {@link farcasterLogin}. */
export type FarcasterLoginParameters = {
  /** Stops the login (the view was left): the frame stops waiting. */
  signal: AbortSignal
  /** Receives the channel's link once it exists. */
  onUrl(url: string): void
}

/**
 * Runs a Farcaster login: the link first (`onUrl`), then, once the user's Farcaster app answered,
 * connected (or the device step a new site may need). Fails with 'Failed to connect to
 * farcaster'; an abort rejects with 4001.
 *
 * @example
 * await farcasterLogin({ signal: controller.signal, onUrl: setUrl })
 */
export async function farcasterLogin({ signal, onUrl }: FarcasterLoginParameters): Promise<void> {
  // 'Multi-wallet support is not enabled…' as it is, not as a failed Farcaster login.
  assertCanSignIn()
  try {
    const { url } = await walletRequest('getFarcasterUri', {}, { signal })
    if (signal.aborted) throw new UserRejectedRequestError('Request was aborted')
    onUrl(url)
    await completeLogin(await walletRequest('connectFarcaster', {}, { signal }))
  } catch (error) {
    if (signal.aborted) throw new UserRejectedRequestError('Request was aborted', { cause: error })
    throw new BaseError(FARCASTER_FAILED, { cause: error })
  }
}
