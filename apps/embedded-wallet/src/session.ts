/**
 * Sign-in and the wallet behind it, with the key custody of DESIGN §4. The key is created in the
 * signer Worker and split 2-of-3:
 * - the device share stays in this origin's IndexedDB (wrapped by a key that cannot be read);
 * - the auth share is kept by the API and released only to a session;
 * - the recovery share is sealed either by the recovery key service (policy `automatic`: it opens
 *   it only after checking the user itself — its own device-approval mail, or the identity
 *   provider's ID token bound to a key of this frame) or under the PRF secret of the user's
 *   passkey (policy `user`: nobody but the user can open it).
 * Any two rebuild the key, only inside the Worker. A new device gets the device share at the same
 * point of the same set (so no new point of the polynomial ever exists, and the other devices'
 * shares stay valid). Shares are replaced only with the key's own signature, and every new
 * device and every replacement is mailed to the user.
 */
import {
  BaseError,
  type EmbeddedUser,
  InternalRpcError,
  UnauthorizedError,
  UserRejectedRequestError,
} from '@porthole/protocol'
import {
  farcasterNonceOf,
  parseFarcasterConnectUrl,
  siteOfFarcasterRequest,
} from '@porthole/shared'
import * as Api from './api.js'
import { showCustodyCard } from './custodyCard.js'
import { takeEarly } from './early.js'
import { t } from './i18n/en.js'
import { freshX, xOf } from './keys.js'
import * as Passkey from './passkey.js'
import * as Recovery from './recovery.js'
import { signer } from './signer.js'
import {
  clearDeviceShare,
  type DeviceShare,
  getDeviceId,
  loadDeviceShare,
  notedUser,
  noteRestore,
  openDeviceShare,
  readDeviceShare,
  saveDeviceShare,
  shareNoted,
} from './storage.js'

/** The frame's default chain (spec §9: eip155:1) until the modal switches it. */
const DEFAULT_CHAIN_ID = 1
const CHAIN_KEY = 'porthole-wallet:chainId'
/** Key export needs a sign-in of the last 5 minutes. */
export const EXPORT_LOGIN_MAX_AGE_MS = 5 * 60 * 1000
/** How often a pending device approval is asked about (spec §9 polling: 1 s). */
const APPROVAL_POLL_MS = 1000
/** How often a Farcaster login under way is asked about (spec §9 polling: 1 s). */
const FARCASTER_POLL_MS = 1000
/** The spec's error for a Farcaster login that fails (§8). */
const FARCASTER_FAILED = 'Failed to connect to farcaster'
/**
 * Why a sign-in loads no wallet here, for the modal to say (`data.reason` of the error: it crosses
 * the frame with the error): a new device's sign-in by a Farcaster custody address the wallet
 * does not belong to, or a device the user removed from the wallet.
 */
const CUSTODY_CHANGED = {
  message:
    'Your Farcaster account’s custody address changed since this wallet was set up: open the wallet on a device where you used it before to confirm the change',
  reason: 'custody-changed',
} as const
const DEVICE_REMOVED = {
  message: 'This device was removed from your wallet',
  reason: 'device-removed',
} as const
const refusal = (why: typeof CUSTODY_CHANGED | typeof DEVICE_REMOVED, cause?: unknown) =>
  new InternalRpcError(why.message, { data: { reason: why.reason }, ...(cause ? { cause } : {}) })

/** A step on a new device (or a new wallet) that needs the user. */
export type DeviceStep = 'email' | 'passkey' | 'passkey-create'

/** How the frame shows itself for a step (the modal puts the frame over its own card). */
export type StepUi = { show(what: string): void; hide(): void }

type Pending =
  | {
      step: 'email'
      stored: Api.StoredShares
      key: Recovery.DeviceKey
      approvalId: string
      email: string
    }
  | { step: 'passkey'; stored: Api.StoredShares }
  | { step: 'passkey-create'; address: string; shares: Uint8Array[] }

/** The stored share set of the loaded wallet (what a re-seal keeps). */
type LoadedSet = { setId: string; deviceX: number; authShare: string }

type State = {
  user: Api.ApiUser | null
  address: string | null
  /** The Solana address derived from the same key (set with `address`). */
  solanaAddress: string | null
  chainId: number
  pendingEmail: string | null
  /** The new address of an e-mail change under way, as the user typed it. */
  pendingNewEmail: string | null
  /** Who the recovery share belongs to, from this sign-in. */
  owner: Recovery.Owner | null
  policy: Api.RecoveryPolicy
  /** The recovery share's kind of the loaded wallet. */
  recoveryKind: Api.StoredRecovery['kind'] | null
  /** The current share set. */
  set: LoadedSet | null
  /** When the current session's sign-in happened (ms). */
  authenticatedAt: number
  /** When `user` was last read from the API (ms; 0: never this session). */
  userReadAt: number
  /** The key whose thumbprint is the nonce of the social login under way. */
  socialKey: Recovery.DeviceKey | null
  /**
   * The Farcaster login under way (or done): the key its message's nonce names, the id the API
   * knows it by.
   */
  farcaster: { key: Recovery.DeviceKey; loginId: string } | null
  pending: Pending | null
  /** The host page's origin (verified by the modal's handshake). */
  site: string
}

const state: State = {
  user: null,
  address: null,
  solanaAddress: null,
  chainId: readChainId(),
  pendingEmail: null,
  pendingNewEmail: null,
  owner: null,
  policy: 'automatic',
  recoveryKind: null,
  set: null,
  authenticatedAt: 0,
  userReadAt: 0,
  socialKey: null,
  farcaster: null,
  pending: null,
  site: '',
}

let projectId = ''

/** Binds the session to its project (the frame URL's). */
export function configureSession(value: { projectId: string }): void {
  projectId = value.projectId
}

/** Records the host page's origin, as the modal verified it (named in custody mail). */
export function setSite(origin: string): void {
  state.site = origin
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

/** The signed-in wallet's Solana address (base58), or null. */
export function solanaAddress(): string | null {
  return state.address ? state.solanaAddress : null
}

/** Records the wallet the signer loaded: its address and the Solana address of the same key. */
async function setLoaded(address: string): Promise<void> {
  state.solanaAddress = await signer.solanaAddress()
  state.address = address
}

/** The Solana address of the key in the signer, kept with the device share (see `restore`). */
async function solanaOfLoaded(): Promise<{ solanaAddress?: string }> {
  const solanaAddress = await signer.solanaAddress()
  return solanaAddress ? { solanaAddress } : {}
}

/** Forgets the loaded wallet's addresses. */
function clearLoaded(): void {
  state.address = null
  state.solanaAddress = null
}

/**
 * Reads the user again from the API (an e-mail changed in another tab shows up); keeps what
 * it had when the API cannot answer.
 *
 * @example
 * await refreshUser()
 */
export async function refreshUser(): Promise<void> {
  // Read moments ago (the sign-in's own answer names the user): the same answer again.
  if (!state.user || Date.now() - state.userReadAt < USER_FRESH_MS) return
  const fresh = await Api.me().catch(() => null)
  if (fresh && state.user && fresh.user.id === state.user.id) {
    state.user = fresh.user
    state.authenticatedAt = fresh.authenticatedAt
    state.userReadAt = Date.now()
  }
}

/** How long the API's word on the user stands without asking again (a sign-in's `getUser`). */
const USER_FRESH_MS = 2_000

let walletNamed: ((address: string) => void) | undefined

/**
 * Calls `listener` with the wallet's address as soon as a sign-in knows it (a new key, or the
 * share set this device holds a point of), before the share set is stored or the key rebuilt:
 * for reads that need no trust (the chain's view of the account).
 *
 * @example
 * onWalletNamed((address) => SmartAccount.readAccountsAhead(address))
 */
export function onWalletNamed(listener: (address: string) => void): void {
  walletNamed = listener
}

/** The user as the modal sees it (spec §3), or null when signed out. */
export function user(): EmbeddedUser | null {
  if (!state.user || !state.address) return null
  return userOf(state.user, state.address, state.solanaAddress)
}

/**
 * The API's id of the signed-in user whose key is loaded here, or null.
 *
 * @example
 * const id = userId()
 */
export function userId(): string | null {
  return state.user && state.address ? state.user.id : null
}

/**
 * Notes `user` (as `getUser` named it, its key loaded here) for the next load's early
 * announcement (`storage.ts`'s restore note): its id and public accounts only. Another wallet's
 * accounts are not noted.
 *
 * @example
 * noteNamed(await currentUser())
 */
export function noteNamed(user: EmbeddedUser): void {
  const id = userId()
  const owner = user.accounts.find((account) => account.type === 'eoa')?.address
  if (!id || !owner || owner.toLowerCase() !== state.address?.toLowerCase()) return
  noteRestore({ userId: id, user: notedUser(user) })
}

/** The user as the modal sees it, from the API's user and the wallet's addresses. */
function userOf(
  apiUser: Api.ApiUser,
  address: string,
  solanaAddress: string | null | undefined,
): EmbeddedUser {
  const social = apiUser.socialProvider
  return {
    email: apiUser.email,
    address: address as `0x${string}`,
    chainId: state.chainId,
    accounts: [{ address: address as `0x${string}`, type: 'eoa' }],
    userName: apiUser.username,
    socialProvider: social === null ? null : (social as EmbeddedUser['socialProvider']),
    preferredAccountType: 'eoa',
    smartAccountDeployed: false,
    ...(solanaAddress ? { solanaAddress } : {}),
  }
}

/** How the loaded wallet recovers on a new device, and what the project asks for. */
export function recovery(): { policy: Api.RecoveryPolicy; kind: 'automatic' | 'passkey' } {
  if (!state.address || !state.recoveryKind)
    throw new UnauthorizedError('Not connected to email or social')
  return { policy: state.policy, kind: state.recoveryKind }
}

const b64 = Api.toBase64

/**
 * Stores a share set at the API — the auth share and the sealed recovery share, signed by the key
 * and naming the set it replaces — and, for a new wallet, the device share here.
 */
async function commitShareSet(
  address: string,
  shares: { device?: Uint8Array; deviceX: number; authShare: string },
  replaces: string | null,
  recovery: Api.StoredRecovery,
): Promise<void> {
  const setId = crypto.randomUUID()
  const body = {
    setId,
    replaces,
    deviceX: shares.deviceX,
    address: address.toLowerCase(),
    authShare: shares.authShare,
    recovery,
  }
  const signature = await signer.signShares({ projectId, ...body })
  // The Solana address is asked of the signer while the API stores the set.
  const solana = shares.device ? solanaOfLoaded() : undefined
  // Only while the PUT runs: its failure is thrown by the `await solana` below.
  solana?.catch(() => {})
  await Api.putShares({ ...body, signature, ...(state.site ? { site: state.site } : {}) })
  if (shares.device)
    await saveDeviceShare({
      setId,
      address,
      ...(await solana),
      share: new Uint8Array(shares.device),
    })
  state.set = { setId, deviceX: shares.deviceX, authShare: shares.authShare }
  state.recoveryKind = recovery.kind
}

/** A new recovery share of the loaded wallet's set (a new point: device and auth shares stay). */
async function newRecoveryShare(): Promise<Uint8Array> {
  const set = state.set
  if (!set) throw new UnauthorizedError('Not connected to email or social')
  return signer.shareAt(freshX([set.deviceX, xOf(Api.fromBase64(set.authShare))]))
}

/** Seals a recovery share for the automatic policy (by the recovery key service). */
async function sealAutomatic(share: Uint8Array): Promise<Api.StoredRecovery> {
  if (!state.owner) throw new BaseError('A problem occurred while trying initialize authentication')
  return { kind: 'automatic', ciphertext: await Recovery.encryptShare(state.owner, b64(share)) }
}

/**
 * Loads (or creates) the wallet of the signed-in user into the signer; returns the step that
 * needs the user first, or null when the wallet is loaded.
 * - No shares at the API: a new key. Policy `automatic`: the recovery share is sealed by the
 *   recovery service at once. Policy `user`: a passkey must be made first (`passkey-create`).
 * - This device holds the current share set: device + auth share.
 * - Otherwise (a new device or host site): auth + recovery share. The recovery share opens with
 *   the passkey (`passkey`), with the social login's ID token, or after the device is approved
 *   from the recovery service's mail (`email`); then a fresh share set gives this device its
 *   own share.
 */
async function loadWallet(
  known: { shares?: Promise<Api.StoredShares>; local?: DeviceShare } = {},
): Promise<DeviceStep | null> {
  let stored: Api.StoredShares | undefined
  try {
    stored = await (known.shares ?? Api.getShares())
  } catch (error) {
    if (error instanceof Api.ApiError && error.code === 'DEVICE_REVOKED') {
      // Removed from another device: this one's copy of the device share goes too.
      await clearDeviceShare()
      throw refusal(DEVICE_REMOVED, error)
    }
    if (!(error instanceof Api.ApiError && error.status === 404)) throw error
    state.policy = error.body.recovery === 'user' ? 'user' : 'automatic'
  }
  if (!stored) {
    const created = await signer.create()
    walletNamed?.(created.address)
    if (state.policy === 'user') {
      state.pending = { step: 'passkey-create', address: created.address, shares: created.shares }
      return 'passkey-create'
    }
    const [device, auth, recovery] = created.shares as [Uint8Array, Uint8Array, Uint8Array]
    await commitShareSet(
      created.address,
      { device, deviceX: xOf(device), authShare: b64(auth) },
      null,
      await sealAutomatic(recovery),
    )
    await setLoaded(created.address)
    return null
  }
  state.policy = stored.policy
  state.recoveryKind = stored.recovery.kind
  state.set = { setId: stored.setId, deviceX: stored.deviceX, authShare: stored.authShare }
  // Device + auth share: they rebuild the key only if they are points of the same set.
  const local = known.local ?? (await loadDeviceShare())
  if (local) {
    // A sign-in's (a restore reads the account from what this device remembers).
    if (!known.local) walletNamed?.(stored.address)
    const restored = await signer
      .restore(local.share, Api.fromBase64(stored.authShare))
      .catch(() => null)
    if (restored?.toLowerCase() === stored.address.toLowerCase()) {
      await setLoaded(restored)
      if (stored.recovery.reseal && stored.recovery.kind === 'automatic') await resealForCustody()
      return null
    }
  }
  if (stored.recovery.ciphertext === null)
    throw stored.recovery.custodyChanged
      ? refusal(CUSTODY_CHANGED)
      : new BaseError('Sign in again to set up this device (the sign-in is too old)')
  if (stored.recovery.kind === 'passkey') {
    state.pending = { step: 'passkey', stored }
    return 'passkey'
  }
  if (state.owner?.kind === 'oidc') {
    if (!state.socialKey) throw new BaseError('Failed to connect')
    const share = await Recovery.decryptWithIdToken(
      stored.recovery.ciphertext,
      state.owner.idToken,
      state.socialKey,
      state.site,
    )
    await finishRecovery(stored, Api.fromBase64(share))
    return null
  }
  if (state.owner?.kind === 'farcaster') {
    if (!state.farcaster) throw new BaseError(FARCASTER_FAILED)
    const share = await Recovery.decryptWithFarcaster(
      stored.recovery.ciphertext,
      state.owner,
      state.farcaster.key,
      state.site,
    )
    await finishRecovery(stored, Api.fromBase64(share))
    return null
  }
  if (state.owner?.kind !== 'email') throw new BaseError('Failed to connect')
  const key = await Recovery.createDeviceKey()
  const { approvalId } = await Recovery.startApproval(state.owner.email, state.site, key)
  state.pending = { step: 'email', stored, key, approvalId, email: state.owner.email }
  return 'email'
}

/**
 * Seals a new recovery share for the custody address of this Farcaster sign-in, on a device that
 * holds the wallet (its key signs the new set): a share sealed before custody addresses were
 * part of it, or after the fid moved to a custody address its owner now confirms. The device
 * and auth shares stay.
 */
async function resealForCustody(): Promise<void> {
  const set = state.set
  if (state.owner?.kind !== 'farcaster' || !set || !state.address) return
  await commitShareSet(state.address, set, set.setId, await sealAutomatic(await newRecoveryShare()))
}

/**
 * Rebuilds the key from the auth and recovery shares, then gives this device the set's device
 * share (the point every device of the user holds); the owner is mailed.
 */
async function finishRecovery(stored: Api.StoredShares, recoveryShare: Uint8Array): Promise<void> {
  const restored = await signer.restore(Api.fromBase64(stored.authShare), recoveryShare)
  if (restored.toLowerCase() !== stored.address.toLowerCase())
    throw new BaseError('A problem occurred while trying initialize authentication')
  const device = await signer.shareAt(stored.deviceX)
  await saveDeviceShare({
    setId: stored.setId,
    address: restored,
    ...(await solanaOfLoaded()),
    share: new Uint8Array(device),
  })
  await Api.reportDevice(state.site || undefined).catch(() => {})
  await setLoaded(restored)
}

async function signedIn(login: Api.Login, owner: Recovery.Owner): Promise<DeviceStep | null> {
  state.user = login.user
  state.policy = login.recovery
  state.owner = owner
  state.authenticatedAt = Date.now()
  state.userReadAt = Date.now()
  state.pending = null
  clearLoaded()
  const step = await loadWallet()
  state.pendingEmail = null
  return step
}

/** A restore under way (see {@link restore}). */
export type Restoring = {
  /**
   * The wallet this device holds a share of (its EOA), as noted beside the share or as its record
   * names it, before the share is decrypted: for reads that need no trust (the chain's view of the
   * account); null without one.
   */
  owner: Promise<string | null>
  /**
   * The user once the API confirmed the session (`/auth/v1/me`) and its share set names this
   * device's wallet (the same address, this device's point of the set): the key is still being
   * rebuilt then. Null when there is no session to restore; the user of `done` when the device
   * share was stored without the wallet's Solana address (the signer names it).
   */
  confirmed: Promise<EmbeddedUser | null>
  /** The user once the key is rebuilt in the signer; null when the restore failed. */
  done: Promise<EmbeddedUser | null>
}

/**
 * Restores a session that survived a reload (the API's partitioned cookie), on a device that
 * holds the current share set. The session and the share set are asked at once, while the
 * signer Worker loads; the user is known (`confirmed`) before the key is rebuilt (`done`).
 *
 * @example
 * const { confirmed, done } = restore()
 */
export function restore(): Restoring {
  let confirm: (user: EmbeddedUser | null) => void = () => {}
  const confirmed = new Promise<EmbeddedUser | null>((resolve) => {
    confirm = resolve
  })
  // What the frame's early script already read and asked (early.ts), else read and ask now.
  const early = takeEarly()
  const record = early?.record ?? readDeviceShare()
  const done = (async () => {
    try {
      // Every sign-in here leaves a device share: without one there is no session to ask about
      // (and no 401 in the console of a first visit).
      const stored = await record
      if (!stored) throw new BaseError('No session on this device')
      // The user signed out and the API did not hear it: end it now, never restore it.
      if (Api.hasPendingLogout()) {
        // Still owed when it fails: the next frame load tries again (the session is not restored).
        await Api.logout().catch(() => undefined)
        throw new BaseError('Signed out')
      }
      // The session and the share set are asked at once, while the share is decrypted.
      const asked = await early?.answers
      const session = Api.me(asked?.me)
      const shares = Api.getShares(asked?.shares)
      // Both are read below (and `shares` by loadWallet, which reports its failure): a refusal is
      // seen there, not lost.
      session.catch(() => undefined)
      shares.catch(() => undefined)
      const share = await openDeviceShare(stored)
      if (!share) throw new BaseError('No session on this device')
      const me = await session
      state.user = me.user
      state.policy = me.recovery
      state.authenticatedAt = me.authenticatedAt
      state.userReadAt = Date.now()
      state.owner = null
      const set = await shares.catch(() => undefined)
      if (
        set &&
        share.solanaAddress &&
        set.address.toLowerCase() === share.address.toLowerCase() &&
        set.deviceX === xOf(share.share)
      )
        confirm(userOf(me.user, share.address, share.solanaAddress))
      // The key is rebuilt now (the signer Worker starts with the request).
      if ((await loadWallet({ shares, local: share })) !== null)
        throw new BaseError('This device needs to sign in again')
      if (!share.solanaAddress && state.address === share.address)
        // Shares stored before the Solana address was kept get it now, for the next restore (a
        // failed write only means that restore waits for the key again).
        await saveDeviceShare({ ...share, ...(await solanaOfLoaded()) }).catch(() => undefined)
      return user()
    } catch {
      state.user = null
      clearLoaded()
      state.pending = null
      return null
    }
  })()
  // Unconfirmed until here (an older device share, or no session): the outcome says it.
  void done.then(confirm)
  // The owner as noted beside the share (at once), else as its record names it.
  const noted = shareNoted()
  return {
    owner: noted ? Promise.resolve(noted) : record.then((stored) => stored?.address ?? null),
    confirmed,
    done,
  }
}

/**
 * Starts e-mail sign-in: CONNECT when already signed in with that address, else VERIFY_OTP (a
 * code is on its way, whether or not the address has an account).
 */
export async function connectEmail(email: string): Promise<'CONNECT' | 'VERIFY_OTP'> {
  if (state.user?.email === email.toLowerCase() && state.address) return 'CONNECT'
  // The code mail names the site the user is on, as the modal's handshake verified it.
  if (!state.site) throw new BaseError('The site is not known yet: try again')
  state.pendingEmail = email.toLowerCase()
  await Api.startEmail(email, await getDeviceId(), state.site)
  return 'VERIFY_OTP'
}

/** Verifies the e-mailed code and signs in; names the device step that follows, if any. */
export async function connectOtp(otp: string): Promise<DeviceStep | null> {
  const email = state.pendingEmail
  if (!email) throw new BaseError('No e-mail login in progress')
  const login = await Api.verifyEmail(email, await getDeviceId(), otp)
  return signedIn(login, { kind: 'email', email })
}

/**
 * The authorization URL of a social provider, for the popup. Its nonce is the thumbprint of a key
 * made here for this login, so the ID token proves this frame's login to the recovery service.
 */
export async function socialRedirectUri(provider: string): Promise<string> {
  state.socialKey = await Recovery.createDeviceKey()
  const { uri } = await Api.startSocial(provider, await getDeviceId(), state.socialKey.thumbprint)
  // The API must not swap the nonce for one of its own (its own key would then open the share).
  if (new URL(uri).searchParams.get('nonce') !== state.socialKey.thumbprint)
    throw new BaseError('Failed to initiate social connection')
  return uri
}

/**
 * Completes social sign-in from the popup's result URI (on this origin's callback page); names
 * the device step that follows, if any.
 *
 * @example
 * await connectSocial('http://wallet.localhost:4200/social-callback.html?result=…', origin)
 */
export async function connectSocial(uri: string, walletOrigin: string): Promise<DeviceStep | null> {
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
  const login = await Api.exchangeSocial(result, await getDeviceId())
  if (!login.idToken) throw new BaseError('Failed to connect')
  return signedIn(login, { kind: 'oidc', idToken: login.idToken })
}

/**
 * Opens a Farcaster login: the `farcaster://connect` link (for a QR code) of a relay channel
 * whose message must carry as nonce the thumbprint (hex) of a key made here, so the signed
 * message proves this frame's login to the recovery service.
 *
 * @example
 * const url = await farcasterUri() // 'farcaster://connect?channelToken=…&nonce=…'
 */
export async function farcasterUri(): Promise<string> {
  // The request names the site the user is on, as the modal's handshake verified it: without
  // one there is nothing to show the approver.
  const site = state.site
  if (!site) throw new BaseError(FARCASTER_FAILED)
  const key = await Recovery.createDeviceKey()
  const nonce = farcasterNonceOf(key.thumbprint)
  const { url, loginId } = await Api.startFarcaster(await getDeviceId(), nonce, site)
  // The API must not swap the nonce for one of its own (its own key would then open the share),
  // nor name another site than this one.
  const request = parseFarcasterConnectUrl(url)
  if (request?.nonce !== nonce || siteOfFarcasterRequest(request) !== new URL(site).origin)
    throw new BaseError(FARCASTER_FAILED)
  state.farcaster = { key, loginId }
  return url
}

/** Resolves after `ms`, or rejects at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer)
      reject(new UserRejectedRequestError('Request was aborted'))
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted)
      resolve()
    }, ms)
    signal.addEventListener('abort', aborted, { once: true })
  })
}

/**
 * Waits (polling every second) until the user's Farcaster wallet answered the login
 * {@link farcasterUri} opened, then signs in as that fid's user; names the device step that
 * follows, if any. Ends when `signal` aborts.
 *
 * @example
 * const step = await connectFarcaster(signal)
 */
export async function connectFarcaster(signal: AbortSignal): Promise<DeviceStep | null> {
  const login = state.farcaster
  if (!login) throw new BaseError(FARCASTER_FAILED)
  for (;;) {
    if (signal.aborted) throw new UserRejectedRequestError('Request was aborted')
    const answer = await Api.farcasterStatus(login.loginId, await getDeviceId())
    if (answer.state === 'completed') {
      const { state: _, farcaster, ...session } = answer
      return signedIn(session, { kind: 'farcaster', ...farcaster })
    }
    await pause(FARCASTER_POLL_MS, signal)
  }
}

async function waitForApproval(
  pending: Extract<Pending, { step: 'email' }>,
  signal: AbortSignal,
): Promise<void> {
  for (;;) {
    if (signal.aborted) throw new UserRejectedRequestError('Request was aborted')
    const status = await Recovery.approvalStatus(pending.approvalId)
    if (status === 'approved') break
    if (status !== 'pending') {
      state.pending = null
      throw new BaseError(
        status === 'denied'
          ? 'This device was denied from the e-mail'
          : 'The approval expired: sign in again',
      )
    }
    await new Promise((resolve) => setTimeout(resolve, APPROVAL_POLL_MS))
  }
  const ciphertext = pending.stored.recovery.ciphertext as string
  const share = await Recovery.decryptWithApproval(ciphertext, pending.approvalId, pending.key)
  await finishRecovery(pending.stored, Api.fromBase64(share))
}

function userLabel(): string {
  return state.user?.email ?? state.user?.username ?? 'Porthole wallet'
}

/** Creates the passkey and seals `share` under it. */
async function sealWithNewPasskey(address: string, share: Uint8Array): Promise<Api.StoredRecovery> {
  if (!state.user) throw new UnauthorizedError('Not connected to email or social')
  const { credentialId, secret } = await Passkey.createPasskey({
    userId: state.user.id,
    name: userLabel(),
  })
  const ciphertext = await Passkey.sealShare(secret, b64(share), { projectId, address })
  return { kind: 'passkey', ciphertext, credentialId }
}

/**
 * Completes the device step under way: waits for the approval from the e-mail (polling the
 * recovery service every second), or asks for the passkey on the frame's own card.
 *
 * @example
 * await connectDevice(signal, ui)
 */
export async function connectDevice(signal: AbortSignal, ui: StepUi): Promise<void> {
  const pending = state.pending
  // Asked again after the step was done (the view that asked was shown anew): nothing to do.
  if (!pending && state.address) return
  if (!pending) throw new BaseError('No e-mail login in progress')
  if (pending.step === 'email') {
    await waitForApproval(pending, signal)
    state.pending = null
    return
  }
  ui.show(pending.step)
  const abort = () => document.querySelector('.pw-custody')?.remove()
  signal.addEventListener('abort', abort, { once: true })
  try {
    if (pending.step === 'passkey')
      await showCustodyCard(
        {
          title: t('unlockTitle'),
          text: [t('unlockNewPlace'), t('unlockUsePasskey')],
          confirm: t('usePasskey'),
          cancel: t('cancel'),
        },
        async () => {
          const { stored } = pending
          const credentialId = stored.recovery.credentialId as string
          const secret = await Passkey.usePasskey(credentialId)
          const binding = { projectId, address: stored.address }
          const share = await Passkey.openShare(
            secret,
            stored.recovery.ciphertext as string,
            binding,
          )
          await finishRecovery(stored, Api.fromBase64(share))
          return undefined
        },
      )
    else
      await showCustodyCard(
        {
          title: t('protectTitle'),
          text: [t('protectNewWallet'), t('protectNobodyElse')],
          confirm: t('createPasskey'),
          cancel: t('cancel'),
        },
        async () => {
          const [device, auth, recovery] = pending.shares as [Uint8Array, Uint8Array, Uint8Array]
          await commitShareSet(
            pending.address,
            { device, deviceX: xOf(device), authShare: b64(auth) },
            null,
            await sealWithNewPasskey(pending.address, recovery),
          )
          await setLoaded(pending.address)
          return undefined
        },
      )
    state.pending = null
  } finally {
    signal.removeEventListener('abort', abort)
    ui.hide()
  }
}

/**
 * Moves the loaded wallet from automatic recovery to a passkey only the user holds: a new
 * recovery share, sealed under the passkey, replaces the one the recovery service could open.
 * The device and auth shares do not change, so the user's other devices keep working.
 *
 * @example
 * await setupPasskey(ui)
 */
export async function setupPasskey(ui: StepUi): Promise<'passkey'> {
  const wallet = state.address
  const set = state.set
  if (!wallet || !set) throw new UnauthorizedError('Not connected to email or social')
  ui.show('passkey-create')
  try {
    await showCustodyCard(
      {
        title: t('protectTitle'),
        text: [t('protectFromNow'), t('protectNobodyElse')],
        confirm: t('createPasskey'),
        cancel: t('cancel'),
      },
      async () => {
        const recovery = await sealWithNewPasskey(wallet, await newRecoveryShare())
        await commitShareSet(wallet, set, set.setId, recovery)
        return undefined
      },
    )
  } finally {
    ui.hide()
  }
  return 'passkey'
}

/**
 * Shows the private key on the frame's own card after an explicit confirmation; needs a sign-in
 * of the last 5 minutes. The key goes from the Worker to this card only (never to the modal).
 *
 * @example
 * await exportKey(ui)
 */
export async function exportKey(ui: StepUi): Promise<void> {
  if (!state.address) throw new UnauthorizedError('Not connected to email or social')
  await refreshUser()
  if (Date.now() - state.authenticatedAt > EXPORT_LOGIN_MAX_AGE_MS)
    throw new UnauthorizedError('Sign in again to export your key (the sign-in is too old)')
  ui.show('export')
  try {
    await showCustodyCard(
      {
        title: t('exportTitle'),
        text: [t('exportAnyone'), t('exportNeverShare')],
        confirm: t('revealKey'),
        cancel: t('cancel'),
      },
      async () => ({
        title: t('keyTitle'),
        text: [t('keyOffline'), t('keySolana')],
        secret: await signer.exportKey(),
        confirm: t('done'),
      }),
    )
  } catch (error) {
    if (!(error instanceof UserRejectedRequestError)) throw error
  } finally {
    ui.hide()
  }
}

/**
 * Signs out: the key leaves memory (the device share stays) and the API ends the session;
 * throws `LogoutFailedError` when the API did not confirm it (the key is gone all the same).
 */
export async function signOut(): Promise<void> {
  state.user = null
  // The next load announces no one before its key is rebuilt.
  noteRestore(undefined)
  clearLoaded()
  state.pendingEmail = null
  state.pending = null
  state.owner = null
  state.socialKey = null
  state.farcaster = null
  await signer.clear()
  // The key is gone from this frame either way; a logout the API did not confirm is an error
  // the user sees (LogoutFailedError), and is tried again on the next sign-out or frame load.
  await Api.logout()
}

/**
 * The wallet's devices as the API lists them; with `seen`, their notices are marked shown here.
 *
 * @example
 * const list = await devices(true)
 */
export async function devices(seen = false): Promise<Api.WalletDevice[]> {
  if (!state.user) throw new UnauthorizedError('Not connected to email or social')
  const { devices: list } = await Api.devices()
  if (seen && list.some((device) => device.isNew)) await Api.devicesSeen()
  return list
}

/**
 * Removes a device from the wallet: the wallet's key signs the removal (a session alone cannot),
 * the device's sessions end and it gets no auth share any more.
 *
 * @example
 * await removeDevice('q1X…')
 */
export async function removeDevice(id: string): Promise<void> {
  if (!state.user || !state.address) throw new UnauthorizedError('Not connected to email or social')
  const signature = await signer.signDeviceRemoval({
    projectId,
    address: state.address,
    device: id,
  })
  await Api.revokeDevice(id, signature)
}

/** Starts an e-mail change (primary code first when the user has an e-mail). */
export async function updateEmail(email: string) {
  if (!state.user) throw new BaseError('Not connected to email or social')
  const action = (await Api.startEmailUpdate(email)).action
  state.pendingNewEmail = email.toLowerCase()
  return action
}

/** Verifies the code sent to the current e-mail. */
export async function updateEmailPrimaryOtp(otp: string) {
  const answer = await Api.verifyEmailUpdate('primary', otp)
  return answer.action ?? 'VERIFY_SECONDARY_OTP'
}

/**
 * Verifies the code sent to the new e-mail; the change is done. An e-mail user's wallet with
 * automatic recovery gets its recovery share sealed for the new address (the one the user typed,
 * not the API's word for it).
 */
export async function updateEmailSecondaryOtp(otp: string): Promise<string> {
  const answer = await Api.verifyEmailUpdate('secondary', otp)
  if (!answer.email) throw new BaseError('An error occurred')
  const typed = state.pendingNewEmail
  state.pendingNewEmail = null
  if (state.user) state.user = { ...state.user, email: answer.email }
  if (
    typed === answer.email.toLowerCase() &&
    state.address &&
    state.recoveryKind === 'automatic' &&
    state.user?.socialProvider === null
  ) {
    state.owner = { kind: 'email', email: typed }
    const set = state.set
    if (set)
      await commitShareSet(
        state.address,
        set,
        set.setId,
        await sealAutomatic(await newRecoveryShare()),
      )
  }
  return answer.email
}

/** Forgets this device's share (used by tests of recovery). */
export { clearDeviceShare }
