/**
 * Sign-in and the wallet behind it: e-mail OTP (with new-device approval), social login, and
 * the key custody of DESIGN §4: the key is created in the signer Worker and split 2-of-3 —
 * device share (this origin's IndexedDB, wrapped), auth share (API, released only to this
 * session), recovery share (encrypted by the recovery key service, stored by the API). Any two
 * rebuild the key, only inside the Worker.
 */
import { BaseError, type EmbeddedUser, UserRejectedRequestError } from '@porthole/protocol'
import * as Api from './api.js'
import { signer } from './signer.js'
import { clearDeviceShare, getDeviceId, loadDeviceShare, saveDeviceShare } from './storage.js'

/** The frame's default chain (spec §9: eip155:1) until the modal switches it. */
const DEFAULT_CHAIN_ID = 1
const CHAIN_KEY = 'porthole-wallet:chainId'

type State = {
  user: Api.ApiUser | null
  address: string | null
  chainId: number
  pendingEmail: string | null
}

const state: State = {
  user: null,
  address: null,
  chainId: readChainId(),
  pendingEmail: null,
}

function readChainId(): number {
  try {
    const stored = Number(localStorage.getItem(CHAIN_KEY))
    return Number.isSafeInteger(stored) && stored > 0 ? stored : DEFAULT_CHAIN_ID
  } catch {
    return DEFAULT_CHAIN_ID
  }
}

/** The current chain id. */
export function chainId(): number {
  return state.chainId
}

/** Switches the frame's chain (remembered on this device). */
export function setChainId(id: number): void {
  state.chainId = id
  try {
    localStorage.setItem(CHAIN_KEY, String(id))
  } catch {}
}

/** The signed-in wallet's address, or null. */
export function address(): string | null {
  return state.address
}

/**
 * Reads the user again from the API (an e-mail changed in another tab shows up); keeps what
 * it had when the API cannot answer.
 *
 * @example
 * await refreshUser()
 */
export async function refreshUser(): Promise<void> {
  if (!state.user) return
  const fresh = await Api.me().catch(() => null)
  if (fresh && state.user && fresh.id === state.user.id) state.user = fresh
}

/** The user as the modal sees it (spec §3), or null when signed out. */
export function user(): EmbeddedUser | null {
  if (!state.user || !state.address) return null
  const social = state.user.socialProvider
  return {
    email: state.user.email,
    address: state.address as `0x${string}`,
    chainId: state.chainId,
    accounts: [{ address: state.address as `0x${string}`, type: 'eoa' }],
    userName: state.user.username,
    socialProvider: social === null ? null : (social as EmbeddedUser['socialProvider']),
    preferredAccountType: 'eoa',
    smartAccountDeployed: false,
  }
}

/**
 * Loads (or creates) the wallet of the signed-in user into the signer.
 * - No shares at the API: a new key, its auth share and encrypted recovery share go to the API,
 *   the device share stays here.
 * - This device holds the current share set: device + auth share.
 * - Otherwise (a new device or host site): auth + recovery share, then a fresh share set, so
 *   this device gets a device share of its own.
 */
async function loadWallet(): Promise<string> {
  let stored: Api.StoredShares | undefined
  try {
    stored = await Api.getShares()
  } catch (error) {
    if (!(error instanceof Api.ApiError && error.status === 404)) throw error
  }
  if (!stored) {
    const created = await signer.create()
    await storeShareSet(created.address, created.shares)
    return created.address
  }
  const auth = Api.fromBase64(stored.authShare)
  const local = await loadDeviceShare()
  if (local && local.setId === stored.setId) {
    const restored = await signer.restore(local.share, auth)
    if (restored.toLowerCase() === stored.address.toLowerCase()) return restored
  }
  const recoveryShare = Api.fromBase64(await Api.decryptRecoveryShare(stored.recoveryCiphertext))
  const restored = await signer.restore(auth, recoveryShare)
  if (restored.toLowerCase() !== stored.address.toLowerCase())
    throw new BaseError('A problem occurred while trying initialize authentication')
  await storeShareSet(restored, await signer.reshare())
  return restored
}

async function storeShareSet(address: string, shares: Uint8Array[]): Promise<void> {
  const [device, auth, recovery] = shares as [Uint8Array, Uint8Array, Uint8Array]
  const setId = crypto.randomUUID()
  const recoveryCiphertext = await Api.encryptRecoveryShare(Api.toBase64(recovery))
  await Api.putShares({ setId, address, authShare: Api.toBase64(auth), recoveryCiphertext })
  await saveDeviceShare({ setId, address, share: new Uint8Array(device) })
}

async function signedIn(apiUser: Api.ApiUser): Promise<EmbeddedUser> {
  state.user = apiUser
  state.address = await loadWallet()
  state.pendingEmail = null
  return user() as EmbeddedUser
}

/**
 * Restores a session that survived a reload (the API's partitioned cookie).
 *
 * @example
 * const restored = await restore()
 */
export async function restore(): Promise<EmbeddedUser | null> {
  try {
    // Every sign-in here leaves a device share: without one there is no session to ask about
    // (and no 401 in the console of a first visit).
    if (!(await loadDeviceShare())) throw new BaseError('No session on this device')
    return await signedIn(await Api.me())
  } catch {
    state.user = null
    state.address = null
    return null
  }
}

/**
 * Starts e-mail sign-in: CONNECT when already signed in with that address, VERIFY_DEVICE for a
 * new device of an existing user, else VERIFY_OTP (a code is on its way).
 */
export async function connectEmail(
  email: string,
): Promise<'CONNECT' | 'VERIFY_DEVICE' | 'VERIFY_OTP'> {
  if (state.user?.email === email.toLowerCase() && state.address) return 'CONNECT'
  state.pendingEmail = email.toLowerCase()
  return (await Api.startEmail(email, await getDeviceId())).action
}

/** Waits (polling every second) until the new device is approved from the e-mail. */
export async function connectDevice(signal: AbortSignal): Promise<void> {
  const email = state.pendingEmail
  if (!email) throw new BaseError('No e-mail login in progress')
  const deviceId = await getDeviceId()
  while (!signal.aborted) {
    if ((await Api.deviceStatus(email, deviceId)).approved) return
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  throw new UserRejectedRequestError('Request was aborted')
}

/** Verifies the e-mailed code and signs in. */
export async function connectOtp(otp: string): Promise<EmbeddedUser> {
  const email = state.pendingEmail
  if (!email) throw new BaseError('No e-mail login in progress')
  return signedIn(await Api.verifyEmail(email, await getDeviceId(), otp))
}

/** The authorization URL of a social provider, for the popup. */
export async function socialRedirectUri(provider: string): Promise<string> {
  return (await Api.startSocial(provider, await getDeviceId())).uri
}

/**
 * Completes social sign-in from the popup's result URI (on this origin's callback page).
 *
 * @example
 * await connectSocial('http://127.0.0.1:4200/social-callback.html?result=…')
 */
export async function connectSocial(uri: string, walletOrigin: string): Promise<EmbeddedUser> {
  const url = new URL(uri)
  if (url.origin !== walletOrigin || url.pathname !== '/social-callback.html')
    throw new BaseError('Failed to initiate social connection')
  const error = url.searchParams.get('error')
  if (error)
    throw new UserRejectedRequestError(
      error === 'access_denied' ? 'Popup closed' : 'Failed to connect',
    )
  const result = url.searchParams.get('result')
  if (!result) throw new BaseError('Failed to connect')
  return signedIn(await Api.exchangeSocial(result, await getDeviceId()))
}

/** Signs out: the session ends and the key leaves memory (the device share stays). */
export async function signOut(): Promise<void> {
  state.user = null
  state.address = null
  state.pendingEmail = null
  await signer.clear()
  await Api.logout().catch(() => {})
}

/** Starts an e-mail change (primary code first when the user has an e-mail). */
export async function updateEmail(email: string) {
  if (!state.user) throw new BaseError('Not connected to email or social')
  return (await Api.startEmailUpdate(email)).action
}

/** Verifies the code sent to the current e-mail. */
export async function updateEmailPrimaryOtp(otp: string) {
  const answer = await Api.verifyEmailUpdate('primary', otp)
  return answer.action ?? 'VERIFY_SECONDARY_OTP'
}

/** Verifies the code sent to the new e-mail; the change is done. */
export async function updateEmailSecondaryOtp(otp: string): Promise<string> {
  const answer = await Api.verifyEmailUpdate('secondary', otp)
  if (!answer.email) throw new BaseError('An error occurred')
  if (state.user) state.user = { ...state.user, email: answer.email }
  return answer.email
}

/** Forgets this device's share (used by tests of recovery). */
export { clearDeviceShare }
