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
import { describeRemembered } from './accountHint.js'
import { configureApi } from './api.js'
import { configureSmartAccounts, loadSmartAccount, warm } from './deferred.js'
import { noted, takeHandshake } from './early.js'
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
type Address = `0x${string}`

// A returning user's session is restored from the start, not from the modal's handshake: the
// modal may create this frame before its own handshake with the host (issue 26), and the API's
// answers, the signer Worker and the account's code load meanwhile. Nothing of it reaches
// anyone before the handshake below (only the modal origin passes it).
const restoring = Session.restore()
// The user's accounts as this device remembers them, with the smart account's deployment read
// from the chain beside the API's answer, as soon as this device is known to hold a share
// (accountHint.ts). The account's code, which asks the factory, loads only when nothing is
// remembered; else once the user is named, with the signer Worker (sooner when the key's rebuild
// asks for it): on a small machine their compiling competed with the reads the user waits for.
const smartAccounts = {
  networks: runtime.smartAccountNetworks,
  factory: runtime.smartAccountFactory,
}
const remembered = restoring.owner.then((owner) =>
  owner ? describeRemembered(owner as Address, Session.chainId(), smartAccounts) : undefined,
)
// A failed read is asked again by the account's code (see described): nothing is lost here.
remembered.catch(() => undefined)
/** The user's accounts from the account's code: the factory's address, the chain's deployment. */
const describeFully = (owner: string) =>
  loadSmartAccount().then((module) => module.describeAccounts(owner as Address))

/**
 * A restored user as `getUser` answers it, for `ready`: its accounts as this device remembers them
 * (the deployment read from the chain), else from the account's code. The modal reports the
 * returning visitor's connection from it without waiting for the settle delay. `undefined` when
 * that takes over a second (a slow chain must not hold `ready` back, and the modal then asks
 * `getUser` as before) or fails (the same `getUser` will report it).
 */
async function described(user: EmbeddedUser | null): Promise<EmbeddedUser | null | undefined> {
  if (!user) return null
  const accounts = remembered
    .catch(() => undefined)
    .then((quick) => quick ?? describeFully(user.address))
  return Promise.race([
    accounts.then((described) => ({ ...user, ...described })),
    new Promise<undefined>((resolve) => setTimeout(resolve, DESCRIBE_WAIT_MS)),
  ]).catch(() => undefined)
}

/** Whether two users name the same accounts (the active one, both addresses, the deployment). */
const sameAccounts = (a: EmbeddedUser, b: EmbeddedUser) =>
  a.address === b.address &&
  a.solanaAddress === b.solanaAddress &&
  a.preferredAccountType === b.preferredAccountType &&
  a.smartAccountDeployed === b.smartAccountDeployed &&
  JSON.stringify(a.accounts) === JSON.stringify(b.accounts)

const DESCRIBE_WAIT_MS = 1000
/** The restored user once the share set and the chain named its accounts. */
const confirmedUser = restoring.confirmed.then(described)
/**
 * The user `ready` names: the restore note's user and accounts as soon as the API confirmed the
 * session for that user (early.ts; on the frame's chain), else the confirmed one; null as soon as
 * the restore failed. The key is still being rebuilt then: requests wait for it (`gated`), and
 * its addresses decide (see onChannel).
 */
const announced: Promise<EmbeddedUser | null | undefined> = Promise.race([
  noted().then((user) =>
    user && Number(user.chainId) === Session.chainId() ? (user as EmbeddedUser) : confirmedUser,
  ),
  confirmedUser,
])

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
  // The early script (early.ts) may have posted `ready` already and kept the modal's answer.
  ...withAnnounced(takeHandshake(modalOrigin)),
  onChannel: (next) => {
    channel = next as unknown as typeof channel
    void Promise.all([announced, localeLoaded, trustRead]).then(([user]) => {
      // A returning user: what the site's first account requests need loads now.
      if (user !== null) setTimeout(warm, 0)
      channel?.emit(
        'ready',
        user === undefined ? { isConnected: true } : { isConnected: user !== null, user },
      )
      if (!user) return
      void restoring.done.then(async (loaded) => {
        // Named before its key was rebuilt, and the rebuild failed, or the rebuilt key is another
        // wallet than the one named (a note of this origin's storage that was not this
        // wallet's): the session ends for the modal.
        const owner = user.accounts.find((account) => account.type === 'eoa')?.address
        if (
          !loaded ||
          owner?.toLowerCase() !== loaded.address.toLowerCase() ||
          (user.solanaAddress !== undefined && user.solanaAddress !== loaded.solanaAddress)
        )
          return channel?.emit('userChanged', { user: null })
        // Named from what this device remembered: the factory's answer is checked, and a
        // difference is the user's change.
        // A failed check keeps what was named; the next `getUser` describes the accounts afresh.
        const full = await describeFully(owner).catch(() => undefined)
        const { solanaAddress: _named, ...rest } = user
        const solana = loaded.solanaAddress ? { solanaAddress: loaded.solanaAddress } : {}
        const checked = full && { ...rest, ...full, ...solana }
        if (checked) Session.noteNamed(checked)
        if (checked && !sameAccounts(checked, user)) channel?.emit('userChanged', { user: checked })
      })
    })
  },
})

let channel: import('@porthole/protocol').Channel.Channel<WalletToModal, ModalToWallet> | undefined

/** `Child.listen`'s `announced` when the early script began the handshake. */
function withAnnounced(announced: { received: readonly MessageEvent[] } | undefined) {
  return announced ? { announced } : {}
}
addEventListener('pagehide', stop)
