/**
 * The embedded wallet (AUTH connector): e-mail and social sign-in through the wallet frame,
 * session restore, sign-out, e-mail update, and the approval round trips of not-safe requests.
 */
import {
  BaseError,
  type ConnectorInfo,
  type EmbeddedUser,
  RPC_NOT_ALLOWED,
  type SocialProvider,
  UserRejectedRequestError,
} from '@porthole/protocol'
import { getAddress } from 'viem'
import { socialName } from '../rules/socials.js'
import { runtime, SDK_TYPE, SDK_VERSION } from '../runtime.js'
import { loadPersisted, savePersisted } from '../store/persist.js'
import { store } from '../store/store.js'
import {
  onWalletChannel,
  showWalletFrame,
  walletFrame,
  walletFrameStarted,
  walletRequest,
} from '../wallet/frame.js'
import * as Balance from './balance.js'
import { connectResult, registerConnectorKind, unsupported } from './connection.js'
import * as Modal from './modal.js'
import * as Waiters from './waiters.js'

/** E-mail login cooldown (spec §5, §9). */
export const EMAIL_COOLDOWN_MS = 30_000
/** Popup size and closed-popup polling (spec §2, §4). */
export const POPUP = { width: 600, height: 800, pollMs: 1000 }
/** Disconnect waits at most this long (spec §9). */
export const SIGN_OUT_WAIT_MS = 3000

/** The clock, replaceable in tests. */
export const clock = { now: () => Date.now() }

function connectorFor(user: EmbeddedUser): ConnectorInfo {
  return {
    id: 'AUTH',
    type: 'AUTH',
    name: user.socialProvider ? socialName(user.socialProvider) : 'Email',
  }
}

/** Records the embedded wallet as the live connection and settles waiting `connect()` calls. */
async function connected(user: EmbeddedUser, silent: boolean): Promise<void> {
  const { activeNetworkId, config } = store.getState()
  const network =
    config.networks.find(
      (n) => n.caipNetworkId === activeNetworkId && n.chainNamespace === 'eip155',
    ) ?? config.networks.find((n) => n.chainNamespace === 'eip155')
  let chainId = Number(user.chainId)
  if (network && Number(network.id) !== chainId) {
    chainId = Number(
      (await walletRequest('switchNetwork', { chainId: Number(network.id) })).chainId,
    )
  }
  const caipNetworkId = `eip155:${chainId}`
  const connector = connectorFor(user)
  store.setState({
    authUser: user,
    connection: {
      status: 'connected',
      connector,
      address: getAddress(user.address),
      caipNetworkId,
    },
    activeNetworkId: caipNetworkId,
  })
  savePersisted((p) => ({
    ...p,
    connectors: { ...p.connectors, eip155: connector },
    status: { ...p.status, eip155: 'connected' },
    activeNetworkId: caipNetworkId,
    disconnectedConnectorIds: p.disconnectedConnectorIds.filter((id) => id !== 'AUTH'),
  }))
  const result = connectResult()
  if (result) Waiters.resolveAll(result)
  void Balance.refresh()
  if (unsupported()) store.setState({ open: true, history: [{ view: 'UnsupportedChain' }] })
  else if (!silent) Modal.close()
}

/**
 * Starts e-mail sign-in: 'Please try again after {n} seconds' within 30 s of the last one;
 * then the OTP view, the new-device view, or connected at once (CONNECT).
 *
 * @example
 * await emailLogin('ada@example.com')
 */
export async function emailLogin(email: string): Promise<void> {
  const last = store.getState().lastEmailLoginAt
  const wait = last === null ? 0 : Math.ceil((last + EMAIL_COOLDOWN_MS - clock.now()) / 1000)
  if (wait > 0) throw new BaseError(`Please try again after ${wait} seconds`)
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
  Modal.showToast('Authenticating...', 'loading', false)
  try {
    await connected(await walletRequest('getUser', {}), silent)
    Modal.hideToast()
  } catch (error) {
    Modal.showToast('A problem occurred while trying initialize authentication', 'error')
    await signOut().catch(() => {})
    store.setState({ history: [{ view: 'Connect' }] })
    throw error
  }
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
  const left = Math.max(0, (screen.width - POPUP.width) / 2)
  const top = Math.max(0, (screen.height - POPUP.height) / 2)
  const popup = window.open(
    'about:blank',
    'porthole-social',
    `popup=yes,width=${POPUP.width},height=${POPUP.height},left=${left},top=${top}`,
  )
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
        .then((answer) => {
          if (!('action' in answer)) return connected(answer, false)
          Modal.push({ view: 'EmailVerifyDevice', email: null, method: answer.method })
        })
        .then(() => end(), end)
    }
    const poll = setInterval(() => {
      if (popup.closed) end(new UserRejectedRequestError('Popup closed'))
    }, POPUP.pollMs)
    addEventListener('message', onMessage)
    walletRequest('getSocialRedirectUri', { provider })
      .then(({ uri }) => {
        if (!done) popup.location.href = uri
      })
      .catch((error: unknown) =>
        end(new BaseError('Failed to initiate social connection', { cause: error })),
      )
  })
}

/**
 * Restores an embedded session after a reload ('connecting', then 'connected'), when the last
 * session was embedded.
 *
 * @example
 * await restoreAuth()
 */
export async function restoreAuth(): Promise<boolean> {
  const persisted = loadPersisted()
  if (persisted.connectors.eip155?.id !== 'AUTH' || persisted.status.eip155 !== 'connected')
    return false
  store.setState({
    connection: {
      status: 'connecting',
      connector: persisted.connectors.eip155,
      address: null,
      caipNetworkId: null,
    },
  })
  try {
    const { isConnected } = await walletRequest('isConnected', {})
    if (!isConnected) throw new Error('Signed out')
    await connected(await walletRequest('getUser', {}), true)
    return true
  } catch {
    store.setState({
      connection: { status: 'disconnected', connector: null, address: null, caipNetworkId: null },
    })
    savePersisted((p) => ({ ...p, status: { ...p.status, eip155: 'disconnected' } }))
    return false
  }
}

/** Signs the embedded wallet out, waiting at most 3 s for the frame. */
export async function signOut(): Promise<void> {
  await Promise.race([
    walletRequest('signOut', {}).catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, SIGN_OUT_WAIT_MS)),
  ])
  store.setState({ authUser: null })
}

/**
 * Runs an EIP-1193 request of the dapp on the embedded wallet. Not-safe requests show the
 * wallet's own approval card; 'Requested RPC call is not allowed' shows 'Action not allowed'
 * after 300 ms.
 *
 * @example
 * await embeddedRequest('personal_sign', [message, address])
 */
export async function embeddedRequest(method: string, params: unknown): Promise<unknown> {
  try {
    return await walletRequest('rpcRequest', {
      method,
      ...(params === undefined ? {} : { params: params as unknown[] }),
    })
  } catch (error) {
    if ((error as Error).message === RPC_NOT_ALLOWED)
      setTimeout(() => Modal.showToast('Action not allowed', 'error'), 300)
    else if (method === 'personal_sign' && (error as { code?: number }).code !== 4001)
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
  registerConnectorKind('AUTH', { disconnect: signOut })
  onWalletChannel((channel) => {
    channel.on('ready', () => {
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
    channel.on('approvalDone', () => {
      showWalletFrame(false)
      const { history } = store.getState()
      if (history.at(-1)?.view !== 'ApproveTransaction') return
      if (history.length > 1) Modal.back()
      else Modal.close()
    })
  })
}

/**
 * Updates the e-mail (spec §4): new address, then the code sent to the current e-mail, then
 * the one sent to the new address. Needs the e-mail or social connector ('Not connected to
 * email or social').
 */
export async function startEmailUpdate(email: string): Promise<void> {
  if (store.getState().connection.connector?.type !== 'AUTH')
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

/** Loads the frame at start when the last session was embedded. */
export function preloadIfEmbedded(): void {
  if (loadPersisted().connectors.eip155?.id === 'AUTH') void walletFrame().catch(() => {})
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
 * Shows the private key on the wallet frame's own card (after a sign-in of the last 5 minutes
 * and a confirmation there); the key never reaches the modal.
 *
 * @example
 * await exportKey()
 */
export async function exportKey(): Promise<void> {
  await walletRequest('exportKey', {})
}
