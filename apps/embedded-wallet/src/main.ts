/**
 * The embedded-wallet frame: accepts the handshake only from the modal origin (a host page
 * cannot reach it), answers the spec's frame catalogue, and shows its own approval card.
 */
import {
  Child,
  type EmbeddedUser,
  fromContract,
  type ModalToWallet,
  ModalToWalletSchema,
  UnauthorizedError,
  type WalletToModal,
} from '@porthole/protocol'
import { configureApi } from './api.js'
import { configureSmartAccounts, warm } from './deferred.js'
import { createHandlers, currentUser } from './handlers.js'
import { loadLocale, localeOf } from './i18n/locales.js'
import { readTrustedOrigins } from './inlineApprovals.js'
import { configureRecovery } from './recovery.js'
import { readRuntime } from './runtime.js'
import * as Session from './session.js'
import './styles.css'

const runtime = readRuntime()
configureApi(runtime)
configureRecovery(runtime)
Session.configureSession(runtime)
configureSmartAccounts({
  networks: runtime.smartAccountNetworks,
  factory: runtime.smartAccountFactory,
})
// The modal's language, in before the frame says it is ready (so before any card); a chunk that
// cannot be fetched leaves the cards in English.
const localeLoaded = loadLocale(localeOf(new URL(location.href).searchParams.get('locale'))).catch(
  () => {},
)
// The sites trusted for approvals in the page, in before the frame says it is ready (so before
// any card); a failed read sends every card to the popup window.
const trustRead = readTrustedOrigins()
const modalOrigin = new URL(runtime.modalUrl).origin
const walletOrigin = location.origin

/**
 * A restored user as `getUser` answers it (the smart account read from the chain), for `ready`:
 * the modal reports the returning visitor's connection from it without waiting for the settle
 * delay. `undefined` when that takes over a second (a slow chain must not hold `ready` back, and
 * the modal then asks `getUser` as before) or fails (the same `getUser` will report it).
 */
async function described(user: EmbeddedUser | null): Promise<EmbeddedUser | null | undefined> {
  if (!user) return null
  return Promise.race([
    currentUser().catch(() => undefined),
    new Promise<undefined>((resolve) => setTimeout(resolve, DESCRIBE_WAIT_MS)),
  ])
}
const DESCRIBE_WAIT_MS = 1000

const stop = Child.listen<WalletToModal, ModalToWallet>({
  parentOrigin: modalOrigin,
  validator: fromContract(ModalToWalletSchema),
  accept: (hello) => {
    if (!runtime.projectId || hello.projectId !== runtime.projectId)
      throw new UnauthorizedError('Invalid Project ID')
  },
  handlers: createHandlers({
    walletOrigin,
    emit: (event, data) => channel?.emit(event, data),
    root: document.documentElement,
    reload: () => location.reload(),
  }),
  onChannel: (next) => {
    channel = next as unknown as typeof channel
    const restored = Session.restore()
    // A returning user: the modal asks for the user (the smart account) next, and the site for its
    // accounts; their code loads now, beside the locale and the trusted origins.
    restored.then((user) => user && warm())
    void Promise.all([restored.then(described), localeLoaded, trustRead]).then(([user]) =>
      channel?.emit(
        'ready',
        user === undefined ? { isConnected: true } : { isConnected: user !== null, user },
      ),
    )
  },
})

let channel: import('@porthole/protocol').Channel.Channel<WalletToModal, ModalToWallet> | undefined
addEventListener('pagehide', stop)
