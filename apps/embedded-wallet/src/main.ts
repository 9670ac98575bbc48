/**
 * The embedded-wallet frame: accepts the handshake only from the modal origin (a host page
 * cannot reach it), answers the spec's frame catalogue, and shows its own approval card.
 */
import {
  Child,
  type EmbeddedUser,
  fromContract,
  type Locale,
  type ModalToWallet,
  ModalToWalletSchema,
  UnauthorizedError,
  type WalletToModal,
} from '@porthole/protocol'
import { configureApi } from './api.js'
import { configureSmartAccounts, loadSmartAccount, warm } from './deferred.js'
import { createHandlers } from './handlers.js'
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
// The sites trusted for approvals in the page, in before the frame says it is ready (so before
// any card); a failed read sends every card to the popup window.
const trustRead = readTrustedOrigins()
const modalOrigin = new URL(runtime.modalUrl).origin
const walletOrigin = location.origin

// A returning user's session is restored from the start, not from the modal's handshake: the
// modal may create this frame before its own handshake with the host (issue 26), and the API's
// answers, the signer Worker and the account's code load meanwhile. Nothing of it reaches
// anyone before the handshake below (only the modal origin passes it).
const restoring = Session.restore()
// The smart account is read from the chain beside the API's answer, as soon as this device is
// known to hold a share. The rest of the account's code and the signer Worker load once the user
// is named (the Worker sooner when the key's rebuild asks for it): on a small machine their
// compiling competed with the reads the user waits for.
const accounts = restoring.owner.then((owner) => {
  if (!owner) return undefined
  return loadSmartAccount().then((module) => module.describeAccounts(owner as `0x${string}`))
})
// A failed read leaves the user to `getUser` (see described): nothing is lost here.
accounts.catch(() => undefined)

/**
 * A restored user as `getUser` answers it (the smart account read from the chain), for `ready`:
 * the modal reports the returning visitor's connection from it without waiting for the settle
 * delay. `undefined` when that takes over a second (a slow chain must not hold `ready` back, and
 * the modal then asks `getUser` as before) or fails (the same `getUser` will report it).
 */
async function described(user: EmbeddedUser | null): Promise<EmbeddedUser | null | undefined> {
  if (!user) return null
  return Promise.race([
    accounts.then((described) => (described ? { ...user, ...described } : undefined)),
    new Promise<undefined>((resolve) => setTimeout(resolve, DESCRIBE_WAIT_MS)),
  ]).catch(() => undefined)
}
const DESCRIBE_WAIT_MS = 1000
const announced = restoring.confirmed.then(described)

/** The frame's language: the URL's, then the one the modal names in `syncDappData`. */
let language: Locale = localeOf(new URL(location.href).searchParams.get('locale'))
/**
 * The language's strings, in before the frame says it is ready (so before any card); a chunk that
 * cannot be fetched leaves the cards in English.
 */
let localeLoaded = loadLocale(language).catch(() => {})
function setLocale(locale: Locale): void {
  if (locale === language) return
  language = locale
  localeLoaded = loadLocale(locale).catch(() => {})
}

const handlers = createHandlers({
  walletOrigin,
  emit: (event, data) => channel?.emit(event, data),
  root: document.documentElement,
  reload: () => location.reload(),
  setLocale,
})

/**
 * Requests wait for the restore under way (its key) and for the language the modal named
 * (`syncDappData`, answered at once, starts loading it): no request acts on a half-restored
 * session, and no card shows in the wrong language.
 */
const gated = Object.fromEntries(
  Object.entries(handlers).map(([method, handler]) => [
    method,
    method === 'syncDappData' || method === 'syncTheme'
      ? handler
      : async (...args: Parameters<typeof handler>) => {
          await Promise.all([restoring.done, localeLoaded])
          return (handler as (...a: typeof args) => unknown)(...args)
        },
  ]),
) as typeof handlers

const stop = Child.listen<WalletToModal, ModalToWallet>({
  parentOrigin: modalOrigin,
  validator: fromContract(ModalToWalletSchema),
  accept: (hello) => {
    if (!runtime.projectId || hello.projectId !== runtime.projectId)
      throw new UnauthorizedError('Invalid Project ID')
  },
  handlers: gated,
  onChannel: (next) => {
    channel = next as unknown as typeof channel
    void Promise.all([announced, localeLoaded, trustRead]).then(([user]) => {
      // A returning user: what the site's first account requests need loads now.
      if (user !== null) setTimeout(warm, 0)
      channel?.emit(
        'ready',
        user === undefined ? { isConnected: true } : { isConnected: user !== null, user },
      )
      // Named before its key was rebuilt, and the rebuild failed: the session ends for the modal.
      if (user)
        void restoring.done.then((loaded) => loaded || channel?.emit('userChanged', { user: null }))
    })
  },
})

let channel: import('@porthole/protocol').Channel.Channel<WalletToModal, ModalToWallet> | undefined
addEventListener('pagehide', stop)
