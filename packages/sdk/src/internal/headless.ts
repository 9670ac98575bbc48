/**
 * Headless mode, in `sdk-calls.js` (sdk.js and sdk-chains.js only forward to it): `wallets()` and
 * `connect({ wallet })` / `connect({ email })` ask the modal, which never shows Connect for
 * them, and the answers are checked before the page sees them (a frame's answer is input too).
 */
import {
  type Channel,
  type ConnectResult,
  type HeadlessWallet,
  type HostToModal,
  InternalRpcError,
  InvalidParamsError,
  isConnectResult,
  isHeadlessWallets,
  type ModalToHost,
} from '@porthole/protocol/lite'

/** How long `wallets()` waits for the modal (it reads the wallet catalogue from the API). */
export const WALLETS_TIMEOUT_MS = 20_000

/** What `connect()` takes in headless mode: one wallet id of `wallets()`, or an e-mail address. */
export type HeadlessConnectOptions = { wallet?: unknown; email?: unknown }

/** What {@link createHeadless} returns. */
export type Headless = {
  /** The wallets the Connect view would list, in its order. */
  wallets(): Promise<HeadlessWallet[]>
  /** Connects `{ wallet }` or `{ email }` without the Connect view. */
  connect(options: HeadlessConnectOptions): Promise<ConnectResult>
}

/**
 * The headless calls over the instance's channel (`ready()` waits for the handshake and
 * rejects with the instance's fatal error).
 *
 * @example
 * const headless = createHeadless(ready)
 * const [first] = await headless.wallets()
 * await headless.connect({ wallet: first.id })
 */
export function createHeadless(
  ready: () => Promise<Pick<Channel.Channel<HostToModal, ModalToHost>, 'request'>>,
): Headless {
  return {
    async wallets() {
      const list = await (await ready()).request('wallets', {}, { timeout: WALLETS_TIMEOUT_MS })
      if (!isHeadlessWallets(list)) throw new InternalRpcError('Invalid wallet list')
      return list
    },
    async connect({ wallet, email }) {
      const byWallet = wallet !== undefined
      const value = byWallet ? wallet : email
      if (byWallet === (email !== undefined) || typeof value !== 'string' || !value)
        throw new InvalidParamsError('Give connect() one of wallet or email')
      const channel = await ready()
      const result = byWallet
        ? await channel.request('connectWallet', { wallet: value })
        : await channel.request('connectEmail', { email: value })
      if (!isConnectResult(result)) throw new InternalRpcError('Invalid connect result')
      return result
    },
  }
}
