/**
 * The embedded wallet (AUTH connector): e-mail and social sign-in through the wallet frame,
 * session restore, sign-out, e-mail update, and the approval round trips of not-safe requests.
 */
import {
  BaseError,
  type ConnectorInfo,
  type EmbeddedUser,
  ProviderRpcError,
  ResourceUnavailableError,
  RPC_NOT_ALLOWED,
  type SocialProvider,
  UserRejectedRequestError,
  type VerifyDevice,
} from '@porthole/protocol'
import { type ChainNamespace, isWebPageUrl } from '@porthole/shared'
import type { Connector, ConnectorAccount } from '../connectors/types.js'
import { t } from '../i18n/en.js'
import { ALERTS } from '../rules/alerts.js'
import { socialName } from '../rules/socials.js'
import { runtime, SDK_TYPE, SDK_VERSION } from '../runtime.js'
import { storedConnectionOf } from '../store/persist.js'
import { store } from '../store/store.js'
import {
  announcedUser,
  onWalletChannel,
  showWalletFrame,
  walletFrame,
  walletFrameStarted,
  walletRequest,
  whenHostConfigured,
} from '../wallet/frame.js'
import { raiseAlert } from './alerts.js'
import * as Connection from './connection.js'
import * as Modal from './modal.js'
import * as NetworkActions from './network.js'
import * as Waiters from './waiters.js'

/** E-mail login cooldown (spec §5, §9). */
export const EMAIL_COOLDOWN_MS = 30_000
/** Popup size and closed-popup polling (spec §2, §4). */
export const POPUP = { width: 600, height: 800, pollMs: 1000 }
/** Disconnect waits at most this long (spec §9). */
export const SIGN_OUT_WAIT_MS = 3000

/** The clock, replaceable in tests. */
export const clock = { now: () => Date.now() }

function infoFor(user: EmbeddedUser | null): ConnectorInfo {
  return {
    id: 'AUTH',
    type: 'AUTH',
    name: user?.socialProvider ? socialName(user.socialProvider) : 'Email',
  }
}

/**
 * Refuses an e-mail, social or Farcaster sign-in before it starts when other wallets hold every
 * namespace the embedded wallet would connect in and the project's `multiWallet` is off.
 *
 * @example
 * assertCanSignIn()
 */
export function assertCanSignIn(): void {
  const configured = new Set(store.getState().config.networks.map((n) => n.chainNamespace))
  Connection.assertCanConnect(
    'AUTH',
    embedded.namespaces.filter((ns) => configured.has(ns)),
  )
}

/** The network of `namespace` the embedded wallet is on: the active one, else the first configured. */
function embeddedNetwork(namespace: ChainNamespace) {
  const { activeNetworkId, config } = store.getState()
  return (
    config.networks.find(
      (n) => n.caipNetworkId === activeNetworkId && n.chainNamespace === namespace,
    ) ?? config.networks.find((n) => n.chainNamespace === namespace)
  )
}

/**
 * The embedded wallet's accounts: EVM on the active (else first configured) eip155 network,
 * moving the wallet there first; Solana on the active (else first configured) solana network
 * when one is configured. With the user as the wallet names it there, for the caller to store: a
 * sign-in stores it in the same task as the connection, so the host hears of it before the modal
 * renders.
 */
async function accountsFor(
  given: EmbeddedUser,
): Promise<{ user: EmbeddedUser; accounts: ConnectorAccount[] }> {
  let user = given
  const pick = (namespace: ChainNamespace) => embeddedNetwork(namespace)
  const evm = pick('eip155')
  let chainId = Number(user.chainId)
  if (evm && Number(evm.id) !== chainId) {
    chainId = Number((await walletRequest('switchNetwork', { chainId: Number(evm.id) })).chainId)
    // The account may differ per chain (a smart account where the chain has them).
    user = await walletRequest('getUser', {})
  }
  const accounts: ConnectorAccount[] = [
    { namespace: 'eip155', address: user.address, caipNetworkId: `eip155:${chainId}` },
  ]
  const solana = pick('solana')
  const { solanaAddress } = user
  if (solana && solanaAddress)
    accounts.push({
      namespace: 'solana',
      address: solanaAddress,
      caipNetworkId: solana.caipNetworkId,
    })
  return { user, accounts }
}

/**
 * The embedded wallet as a connector: the sign-in flows below connect it; requests go to the
 * wallet frame (not-safe ones wait for its approval card).
 */
const embedded: Connector & { info: ConnectorInfo } = {
  info: infoFor(null),
  namespaces: ['eip155', 'solana'],
  async connect() {
    throw new BaseError('Sign in with e-mail or a social account')
  },
  async getAccounts() {
    // A restore takes the user the frame named in its `ready`: the returning visitor's page sees
    // the connection then, not after the 500 ms settle delay and two round trips (issue 26:
    // 752 ms after the page's load event). Requests still wait for the settle delay.
    const restoring = restored
    restored = undefined
    let user = restoring ? await restoring : undefined
    if (user === undefined) {
      const { isConnected } = await walletRequest('isConnected', {})
      user = isConnected ? await walletRequest('getUser', {}) : null
    }
    if (!user) return []
    embedded.info = infoFor(user)
    // Stored before any wait: a `userChanged` with no user (the key did not rebuild) that comes
    // while the accounts are read still finds the user to end.
    store.setState({ authUser: user })
    const named = await accountsFor(user)
    if (named.user !== user && store.getState().authUser) store.setState({ authUser: named.user })
    return named.accounts
  },
  request({ namespace, method, params, caipNetworkId }) {
    if (namespace === 'eip155' && method === 'wallet_switchEthereumChain')
      return switchEmbeddedChain(params)
    return embeddedRequest(method, params, namespace, caipNetworkId)
  },
  disconnect: () => signOut(),
  async switchNetwork(network) {
    if (network.chainNamespace !== 'eip155') return
    // Spec §4: an auth provider switches chain and reloads the user.
    await walletRequest('switchNetwork', { chainId: Number(network.id) })
    const user = await walletRequest('getUser', {})
    store.setState({ authUser: user })
    // The account may differ there (a smart account only where the chain has them): the
    // connection, and the dapp, follow the wallet's account on the new chain.
    Connection.onConnectorEvent('AUTH', {
      event: 'accountsChanged',
      data: [user.address],
      namespace: 'eip155',
    })
  },
}

/** The frame's announced user, for the `getAccounts` that follows a restore (taken once). */
let restored: Promise<EmbeddedUser | null | undefined> | undefined

Connection.registerConnectorKind('AUTH', {
  async restore() {
    restored = announcedUser()
    return embedded
  },
})

/** Records the embedded wallet as connected and settles waiting `connect()` calls. */
async function connected(user: EmbeddedUser, silent: boolean): Promise<void> {
  // The user is read again when the wallet had to move to the modal's network first.
  const named = await accountsFor(user)
  embedded.info = infoFor(user)
  store.setState({ authUser: named.user })
  Connection.setConnected(embedded, named.accounts, { silent })
}

/**
 * Switches the embedded user's eip155 account between the smart account and its owner (spec §4
 * "Preferred account type"); the host sees `accountsChanged`.
 *
 * @example
 * await setPreferredAccountType('eoa')
 */
export async function setPreferredAccountType(type: 'eoa' | 'smartAccount'): Promise<void> {
  await walletRequest('setPreferredAccount', { type })
  await connected(await walletRequest('getUser', {}), false)
}

/**
 * `wallet_switchEthereumChain` of the embedded wallet: a configured network, else 4902. The
 * state (and chainChanged) reaches the host before this answer, so the dapp's next
 * `eth_chainId` already names the new chain.
 */
async function switchEmbeddedChain(params: unknown): Promise<null> {
  const [{ chainId } = { chainId: undefined }] = (Array.isArray(params) ? params : []) as {
    chainId?: unknown
  }[]
  const id = typeof chainId === 'string' && /^0x[0-9a-fA-F]+$/.test(chainId) ? BigInt(chainId) : -1n
  const caip = `eip155:${id}`
  if (!store.getState().config.networks.some((n) => n.caipNetworkId === caip))
    throw new ProviderRpcError(4902, `Unrecognized chain ID "${String(chainId)}".`)
  // The dapp asked for it: no confirmation view (that is for switches chosen in the modal).
  await NetworkActions.performSwitch(NetworkActions.findNetwork(caip))
  return null
}

/**
 * The e-mail sign-in's code entry (its view's chunk), replaceable in tests. The chunk itself, not
 * `lazyViews.js`: importing that here would split it out of the first download (one more
 * response before the first usable view).
 */
export const emailLoginDependency = {
  load: (): Promise<unknown> => import('../views/EmailSteps.js'),
}

/**
 * Starts e-mail sign-in: 'Please try again after {n} seconds' within 30 s of the last one;
 * then the OTP view, the new-device view, or connected at once (CONNECT).
 *
 * @example
 * await emailLogin('ada@example.com')
 */
export async function emailLogin(email: string): Promise<void> {
  assertCanSignIn()
  const last = store.getState().lastEmailLoginAt
  const wait = last === null ? 0 : Math.ceil((last + EMAIL_COOLDOWN_MS - clock.now()) / 1000)
  if (wait > 0) throw new BaseError(`Please try again after ${wait} seconds`)
  // The code entry's view is a chunk of its own (usually fetched while the address was typed):
  // without it the user could not enter the code, so no code is sent (spec §8's error, -32002).
  await emailLoginDependency.load().catch((cause: unknown) => {
    throw new ResourceUnavailableError('Unable to load email login dependency', { cause })
  })
  // The wallet is on the modal's network before the code comes: the sign-in reads its account
  // there while it stores the new key's shares (the request is answered before connectEmail's).
  const evm = embeddedNetwork('eip155')
  // A head start only: `getUser` names the network again after the code (and reports failures).
  if (evm) void walletRequest('switchNetwork', { chainId: Number(evm.id) }).catch(() => {})
  const { action } = await walletRequest('connectEmail', { email })
  store.setState({ lastEmailLoginAt: clock.now() })
  if (action === 'CONNECT') return finish(false)
  Modal.push({ view: 'EmailVerifyOtp', email })
}

/**
 * Finishes the device step a sign-in named (approve from the recovery service's mail, use or
 * create the passkey on the wallet frame's own card); then the wallet is connected.
 *
 * @example
 * await waitForDevice(controller.signal)
 */
export async function waitForDevice(signal: AbortSignal): Promise<void> {
  await walletRequest('connectDevice', {}, { signal })
  await finish(false)
}

/** Submits the e-mailed code; on success the wallet is connected (or a device step follows). */
export async function submitOtp(otp: string, email: string): Promise<void> {
  const answer = await walletRequest('connectOtp', { otp })
  if ('action' in answer)
    return Modal.replace({ view: 'EmailVerifyDevice', email, method: answer.method })
  await finish(false)
}

async function finish(silent: boolean): Promise<void> {
  // A new user starts with the host's account type (spec §6); one who chose keeps theirs.
  const preferredAccountType = store.getState().config.evmAccountType
  // On the modal's network at once (else `accountsFor` switches and asks again).
  const evm = embeddedNetwork('eip155')
  // Asked before the toast renders: the wallet answers while the modal draws it.
  const asked = walletRequest('getUser', {
    preferredAccountType,
    ...(evm ? { chainId: Number(evm.id) } : {}),
  })
  // Awaited in the `try` below, which reports its failure; this only spans the toast's render.
  asked.catch(() => {})
  Modal.showToast('Authenticating...', 'loading', false)
  try {
    await connected(await asked, silent)
    Modal.hideToast()
  } catch (error) {
    Modal.showToast('A problem occurred while trying initialize authentication', 'error')
    // An unconfirmed sign-out raised its own alert (signOut): the login's error is the one to report.
    await signOut().catch(() => {})
    const { open, history } = store.getState()
    // Opened on the sign-in steps alone (headless `connect({ email })`): Connect never shows
    // there, so the modal closes and the waiting `connect()` calls fail with this error.
    if (open && !history.some((screen) => screen.view === 'Connect')) {
      Waiters.rejectAll(error)
      Modal.close()
    } else store.setState({ history: [{ view: 'Connect' }] })
    throw error
  }
}

/**
 * Ends a social or Farcaster sign-in with the wallet frame's answer: connected, or the device
 * step it names first (its view finishes with `waitForDevice`).
 *
 * @example
 * await completeLogin(await walletRequest('connectFarcaster', {}))
 */
export async function completeLogin(answer: VerifyDevice | EmbeddedUser): Promise<void> {
  if (!('action' in answer)) return connected(answer, false)
  Modal.push({ view: 'EmailVerifyDevice', email: null, method: answer.method })
}

/**
 * Opens an empty popup window centred on the screen, for a page that is only known after an
 * await (social login, an on-ramp checkout). Must run synchronously inside the click: browsers
 * block popups opened later. `null` when the browser blocked it.
 *
 * @example
 * const popup = openBlankPopup('porthole-onramp')
 */
export function openBlankPopup(name: string): Window | null {
  const left = Math.max(0, (screen.width - POPUP.width) / 2)
  const top = Math.max(0, (screen.height - POPUP.height) / 2)
  return window.open(
    'about:blank',
    name,
    `popup=yes,width=${POPUP.width},height=${POPUP.height},left=${left},top=${top}`,
  )
}

/**
 * Opens the social-login popup. Must run synchronously inside the click (browsers block popups
 * opened later); the returned promise settles when the login ends. A closed popup is noticed
 * by polling every second: 'Popup closed'.
 *
 * @example
 * button.onclick = () => void socialLogin('google')
 */
export function socialLogin(provider: SocialProvider): Promise<void> {
  try {
    assertCanSignIn()
  } catch (error) {
    return Promise.reject(error)
  }
  const popup = openBlankPopup('porthole-social')
  if (!popup) return Promise.reject(new BaseError('Failed to initiate social connection'))
  return new Promise<void>((resolve, reject) => {
    const walletOrigin = new URL(runtime.walletUrl).origin
    let done = false
    const end = (error?: unknown) => {
      if (done) return
      done = true
      clearInterval(poll)
      removeEventListener('message', onMessage)
      if (!popup.closed) popup.close()
      error ? reject(error) : resolve()
    }
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== walletOrigin || event.source !== popup) return
      const data = event.data as { type?: unknown; resultUri?: unknown }
      if (data?.type !== 'porthole:social-result' || typeof data.resultUri !== 'string') return
      clearInterval(poll)
      walletRequest('connectSocial', { uri: data.resultUri })
        .then(completeLogin)
        .then(() => end(), end)
    }
    const poll = setInterval(() => {
      if (popup.closed) end(new UserRejectedRequestError('Popup closed'))
    }, POPUP.pollMs)
    addEventListener('message', onMessage)
    walletRequest('getSocialRedirectUri', { provider })
      .then(({ uri }) => {
        // Only a web page, never a script URL that would run on this origin in the popup.
        if (!isWebPageUrl(uri)) throw new Error(`Not a web page: ${uri.slice(0, 64)}`)
        if (!done) popup.location.href = uri
      })
      .catch((error: unknown) =>
        end(new BaseError('Failed to initiate social connection', { cause: error })),
      )
  })
}

/**
 * Signs the embedded wallet out, waiting at most 3 s for the frame. The key leaves the frame
 * either way; when the frame does not confirm that the API ended the session (the API
 * unreachable or refusing, or the frame silent), the modal opens on the 'sign-out incomplete'
 * alert with Try again (issue 25 audit: the failure was swallowed and the user saw "signed out"
 * while the server session lived on), and the returned promise rejects with that alert's text.
 */
export async function signOut(): Promise<void> {
  const confirmed = await askSignOut()
  store.setState({ authUser: null })
  if (!confirmed) {
    raiseAlert({ ...ALERTS.signOutIncomplete, message: t('signOutIncomplete') })
    if (!store.getState().open) Modal.open()
    // The host hears it too: `disconnect()` rejects with 'Failed to disconnect' (issue 27).
    throw new BaseError(ALERTS.signOutIncomplete.message)
  }
}

/**
 * Asks the wallet frame to sign out again after an unconfirmed sign-out (the alert's Try
 * again): the alert goes once it is confirmed, else it stays and the modal shakes.
 *
 * @example
 * await retrySignOut()
 */
export async function retrySignOut(): Promise<void> {
  if (await askSignOut()) {
    if (store.getState().alert?.action === 'retrySignOut') store.setState({ alert: null })
    Modal.showToast(t('signedOut'), 'success')
  } else Modal.shake()
}

/** Whether the wallet frame confirmed the sign-out within {@link SIGN_OUT_WAIT_MS}. */
function askSignOut(): Promise<boolean> {
  return Promise.race([
    walletRequest('signOut', {}).then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), SIGN_OUT_WAIT_MS)),
  ])
}

/**
 * Runs a request of the dapp on the embedded wallet (EIP-1193, or WalletConnect's Solana
 * methods with the Solana network's reference as `chainId`). Not-safe requests show the
 * wallet's own approval card; 'Requested RPC call is not allowed' shows 'Action not allowed'
 * after 300 ms.
 *
 * @example
 * await embeddedRequest('personal_sign', [message, address])
 */
export async function embeddedRequest(
  method: string,
  params: unknown,
  namespace: ChainNamespace = 'eip155',
  caipNetworkId: string | null = null,
): Promise<unknown> {
  try {
    if (namespace !== 'eip155' && namespace !== 'solana')
      throw new BaseError(`The embedded wallet has no ${namespace} account`)
    return await walletRequest('rpcRequest', {
      method,
      ...(params === undefined ? {} : { params: params as unknown[] }),
      ...(namespace === 'solana'
        ? {
            namespace,
            ...(caipNetworkId ? { chainId: caipNetworkId.split(':')[1] as string } : {}),
          }
        : {}),
    })
  } catch (error) {
    if ((error as Error).message === RPC_NOT_ALLOWED)
      setTimeout(() => Modal.showToast('Action not allowed', 'error'), 300)
    else if (
      (method === 'personal_sign' || method === 'solana_signMessage') &&
      (error as { code?: number }).code !== 4001
    )
      Modal.showToast('Error signing message', 'error')
    throw error
  }
}

/** What the wallet frame shows itself for besides approvals (the view that asked stays). */
const CUSTODY_STEPS = new Set(['email', 'passkey', 'passkey-create', 'export'])

/** Aborts not-safe requests waiting for approval (the modal was closed). */
export function abortApprovals(): void {
  void walletRequest('rpcAbort', {}).catch(() => {})
}

/** Wires the wallet frame's approval events to the modal, and the modal's close to aborts. */
export function watchWalletFrame(): void {
  Modal.onClose(() => {
    if (walletFrameStarted()) abortApprovals()
  })
  onWalletChannel((channel) => {
    channel.on('ready', async () => {
      // A frame made before the host's handshake is told about the host once it is verified.
      await whenHostConfigured()
      const { config } = store.getState()
      void channel
        .request('syncTheme', {
          themeMode: config.themeMode,
          themeVariables: config.themeVariables,
        })
        .catch(() => {})
      void channel
        .request('syncDappData', {
          metadata: config.metadata,
          // The origin the handshake checked: the wallet shows it, never the host's claimed URL.
          hostOrigin: runtime.hostOrigin,
          networks: config.networks
            .filter((network) => network.chainNamespace === 'eip155')
            .map((network) => ({
              chainId: Number(network.id),
              name: network.name,
              symbol: network.nativeCurrency.symbol,
              decimals: network.nativeCurrency.decimals,
            })),
          sdkVersion: SDK_VERSION,
          sdkType: SDK_TYPE,
          projectId: config.projectId,
          locale: config.locale,
        })
        .catch(() => {})
    })
    channel.on('approvalRequested', ({ method }) => {
      // Custody steps (passkey, export) are asked for by a view that stays: only show the frame.
      if (CUSTODY_STEPS.has(method)) return showWalletFrame(true)
      const { open, history } = store.getState()
      // A queued request shows in the same card: one ApproveTransaction view is enough.
      if (open && history.at(-1)?.view === 'ApproveTransaction') return showWalletFrame(true)
      store.setState(
        open
          ? { history: [...history, { view: 'ApproveTransaction', method }] }
          : { open: true, history: [{ view: 'ApproveTransaction', method }] },
      )
      showWalletFrame(true)
    })
    // The smart account deployed (or the user changed otherwise): the state follows.
    channel.on('userChanged', ({ user }) => {
      const current = store.getState().authUser
      if (user && current) {
        store.setState({ authUser: user })
        // Another active account (the wallet checked what it named from memory): the dapp follows.
        if (user.address !== current.address)
          Connection.onConnectorEvent('AUTH', {
            event: 'accountsChanged',
            data: [user.address],
            namespace: 'eip155',
          })
      }
      // A restored session the frame named but could not load (its key did not rebuild): it ends.
      if (user === null && store.getState().authUser) {
        store.setState({ authUser: null })
        Connection.onConnectorEvent('AUTH', { event: 'disconnect', data: null })
      }
    })
    channel.on('approvalDone', () => {
      const { history } = store.getState()
      const approving = history.at(-1)?.view === 'ApproveTransaction'
      if (approving && history.length === 1) {
        // The card was all the modal showed: it closes, and the host gives focus back to its
        // opener (nothing in the modal or the wallet frame takes it meanwhile).
        Modal.close()
        showWalletFrame(false, { closing: true })
        return
      }
      showWalletFrame(false)
      if (approving) Modal.back()
    })
  })
}

/**
 * Updates the e-mail (spec §4): new address, then the code sent to the current e-mail, then
 * the one sent to the new address. Needs the e-mail or social connector ('Not connected to
 * email or social').
 */
export async function startEmailUpdate(email: string): Promise<void> {
  if (!store.getState().connections.some((c) => c.connector.type === 'AUTH'))
    throw new BaseError('Not connected to email or social')
  const { action } = await walletRequest('updateEmail', { email })
  Modal.replace({
    view: 'UpdateEmailWallet',
    stage: action === 'VERIFY_PRIMARY_OTP' ? 'primary' : 'secondary',
    email,
  })
}

/** Submits one of the e-mail update codes. */
export async function submitEmailUpdateOtp(
  stage: 'primary' | 'secondary',
  email: string,
  otp: string,
): Promise<void> {
  if (stage === 'primary') {
    await walletRequest('updateEmailPrimaryOtp', { otp })
    Modal.replace({ view: 'UpdateEmailWallet', stage: 'secondary', email })
    return
  }
  const { newEmail } = await walletRequest('updateEmailSecondaryOtp', { otp })
  const user = store.getState().authUser
  if (user) store.setState({ authUser: { ...user, email: newEmail } })
}

/** How often UpdateEmailWallet reads the user while it waits (spec §2). */
export const EMAIL_UPDATE_POLL_MS = 1000

/**
 * Reads the user from the wallet; true (and the store updated) once its e-mail is `newEmail`.
 *
 * @example
 * if (await pollEmailChange('new@example.com')) Modal.back()
 */
export async function pollEmailChange(newEmail: string): Promise<boolean> {
  const fresh = await walletRequest('getUser', {}).catch(() => null)
  if (!fresh || fresh.email?.toLowerCase() !== newEmail.toLowerCase()) return false
  const user = store.getState().authUser
  if (user) store.setState({ authUser: { ...user, email: fresh.email } })
  return true
}

/**
 * Starts loading the wallet frame as soon as the user heads for an embedded login (typing in
 * or clicking the e-mail field, pointing at a social button), so its load and 500 ms settle
 * overlap the typing instead of following the submit. Programmatic focus does not count: a
 * visitor who picks an extension never loads the wallet frame.
 *
 * @example
 * <input onChange={Auth.warmUp} />
 */
export function warmUp(): void {
  void walletFrame().catch(() => {})
}

/**
 * Creates the wallet frame as the modal starts, before the host's handshake, when this frame's
 * storage holds the last visit's embedded connection: the returning user's session is restored
 * while the modal loads and shakes hands, instead of after (issue 26). The frame is told about
 * the host once the handshake verified it, and dropped if the handshake is refused.
 *
 * @example
 * preloadIfEmbedded()
 */
export function preloadIfEmbedded(): void {
  // A frame that fails to load shows its own alert (`fail` in wallet/frame.ts); the next use
  // makes it again.
  if (storedConnectionOf('AUTH')) void walletFrame().catch(() => {})
}

/**
 * How the embedded wallet recovers on a new device (`passkey`: only with the user's passkey).
 *
 * @example
 * const { kind } = await recoveryInfo()
 */
export function recoveryInfo() {
  return walletRequest('getRecovery', {})
}

/**
 * Moves the embedded wallet to a passkey only the user holds (the wallet frame asks on its own
 * card).
 *
 * @example
 * await setupPasskey()
 */
export function setupPasskey() {
  return walletRequest('setupPasskey', {})
}

/**
 * The embedded wallet's devices (`isNew`: a recovery or a refused custody not shown here yet);
 * `seen` marks them shown on this device.
 *
 * @example
 * const { devices } = await walletDevices(false)
 */
export function walletDevices(seen: boolean) {
  return walletRequest('getDevices', { seen })
}

/**
 * Removes a device from the embedded wallet (the frame signs it with the wallet's key): it is
 * signed out and gets the wallet no more. Only from the user's click in Account.
 *
 * @example
 * await removeWalletDevice(device.id)
 */
export async function removeWalletDevice(id: string): Promise<void> {
  await walletRequest('removeDevice', { id })
}

/**
 * Shows the private key on the wallet frame's own card (after a sign-in of the last 5 minutes
 * and a confirmation there); the key never reaches the modal.
 *
 * @example
 * await exportKey()
 */
export async function exportKey(): Promise<void> {
  await walletRequest('exportKey', {})
}
