/**
 * Calls to the API's embedded-wallet auth routes (`/auth/v1/…`) and its chain RPC proxy. The
 * session is an HttpOnly partitioned cookie the API sets (sent with `credentials: 'include'`);
 * the bearer token from the login answer is kept in memory too. The API holds one share of a
 * wallet (the auth share) and the recovery share's ciphertext; it can vouch for nobody to the
 * recovery key service (see `recovery.ts`).
 */
import { BaseError } from '@porthole/protocol'
import { LOGOUT_PENDING_KEY, pendingLogout } from './early.js'
import { type Runtime, SDK_TYPE, SDK_VERSION } from './runtime.js'

/** A failed API call: `code` and `message` from the API's JSON error. */
export class ApiError extends BaseError {
  override name = 'ApiError'
  readonly status: number
  readonly code: string
  readonly body: Record<string, unknown>
  constructor(status: number, body: Record<string, unknown>) {
    super(typeof body.message === 'string' ? body.message : `HTTP status code: ${status}`)
    this.status = status
    this.code = typeof body.code === 'string' ? body.code : 'HTTP_ERROR'
    this.body = body
  }
}

/** The signed-in user as the API describes it. */
export type ApiUser = {
  id: string
  email: string | null
  socialProvider: string | null
  username: string | null
  isNew?: boolean
}

/** How a project's wallets are recovered on a new device (the API's `recovery` policy). */
export type RecoveryPolicy = 'automatic' | 'user'

/** The recovery share as the API stores it. */
export type StoredRecovery =
  | { kind: 'automatic'; ciphertext: string }
  | { kind: 'passkey'; ciphertext: string; credentialId: string }

/** The key shares the API keeps for the user. */
export type StoredShares = {
  setId: string
  /** The device share's x coordinate (every device of the user holds the share at it). */
  deviceX: number
  address: string
  authShare: string
  /**
   * `ciphertext` is null unless the sign-in is under 10 minutes old and, for a Farcaster wallet,
   * signed by the custody address the wallet belongs to (`custodyChanged` otherwise); `reseal`
   * asks this device, if it holds the wallet, to seal the recovery share for this sign-in's
   * custody address.
   */
  recovery: {
    kind: StoredRecovery['kind']
    credentialId?: string
    ciphertext: string | null
    custodyChanged?: boolean
    reseal?: boolean
  }
  policy: RecoveryPolicy
}

/** A device of the wallet, as the API lists them. */
export type WalletDevice = {
  id: string
  kind: 'created' | 'known' | 'recovered' | 'custody-refused'
  site: string | null
  label: string
  custody: string | null
  createdAt: number
  lastSeenAt: number
  current: boolean
  isNew: boolean
}

/** A new share set, signed by the wallet key (`sharesDigest` of `@porthole/shared`). */
export type NewShares = {
  setId: string
  replaces: string | null
  deviceX: number
  address: string
  authShare: string
  recovery: StoredRecovery
  signature: string
  site?: string
}

let runtime: Runtime | undefined
let token: string | null = null

/** Binds the client to this page's runtime settings. */
export function configureApi(value: Runtime): void {
  runtime = value
}

function settings(): Runtime {
  if (!runtime) throw new Error('API used before configuration')
  return runtime
}

async function call<T>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  /** The same request's answer, already asked (`early.ts`). */
  asked?: Promise<Response>,
): Promise<T> {
  const { apiUrl, projectId } = settings()
  const url = new URL(`/auth/v1${path}`, apiUrl)
  url.searchParams.set('projectId', projectId)
  url.searchParams.set('st', SDK_TYPE)
  url.searchParams.set('sv', SDK_VERSION)
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token) headers.authorization = `Bearer ${token}`
  const response = await (asked ??
    fetch(url, {
      method,
      credentials: 'include',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    }))
  if (response.status === 204) return undefined as T
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok) throw new ApiError(response.status, json)
  return json as T
}

/** A Sign In With Farcaster message and the custody signature of it. */
export type FarcasterSignIn = { message: string; signature: string }

/** A sign-in's answer. */
export type Login = { user: ApiUser; recovery: RecoveryPolicy; idToken?: string | null }

type Session = Login & { token: string }
const keep = ({ token: value, ...login }: Session): Login => {
  token = value
  // A new sign-in is the user's choice: an earlier sign-out still owed no longer stands.
  forgetPendingLogout()
  return login
}

/** Starts an e-mail login; the code mail names `site` (the host page's origin the modal verified). */
export const startEmail = (email: string, deviceId: string, site: string) =>
  call<{ action: 'VERIFY_DEVICE' | 'VERIFY_OTP' }>('POST', '/email/start', {
    email,
    deviceId,
    site,
  })
export const verifyEmail = async (email: string, deviceId: string, code: string) =>
  keep(await call<Session>('POST', '/email/verify', { email, deviceId, code }))
export const startSocial = (provider: string, deviceId: string, nonce: string) =>
  call<{ uri: string }>('POST', '/social/start', { provider, deviceId, nonce })
export const exchangeSocial = async (result: string, deviceId: string) =>
  keep(await call<Session>('POST', '/social/exchange', { result, deviceId }))
/**
 * Opens a Sign In With Farcaster login naming `site` (the host page's verified origin): the
 * `farcaster://connect` link and the id to poll with.
 */
export const startFarcaster = (deviceId: string, nonce: string, site: string) =>
  call<{ url: string; loginId: string }>('POST', '/farcaster/start', { deviceId, nonce, site })
/** A Farcaster login's state: pending, or signed in (with the message the wallet signed). */
export const farcasterStatus = async (
  loginId: string,
  deviceId: string,
): Promise<{ state: 'pending' } | (Login & { state: 'completed'; farcaster: FarcasterSignIn })> => {
  const answer = await call<
    { state: 'pending' } | (Session & { state: 'completed'; farcaster: FarcasterSignIn })
  >('POST', '/farcaster/status', { loginId, deviceId })
  if (answer.state === 'pending') return answer
  const { state, farcaster, ...session } = answer
  return { ...keep(session), state, farcaster }
}
/** The session's user; `asked`: the same request's answer, asked as the frame started. */
export const me = (asked?: Promise<Response>) =>
  call<{ user: ApiUser; recovery: RecoveryPolicy; authenticatedAt: number }>(
    'GET',
    '/me',
    undefined,
    undefined,
    asked,
  )
/**
 * Thrown when the API did not confirm a sign-out (unreachable, or it refused): the session may
 * still be alive there. The credential is kept, so asking again can end it.
 */
export class LogoutFailedError extends BaseError {
  override name = 'LogoutFailedError'
  constructor(options: { cause?: unknown } = {}) {
    super('The sign-out did not reach the server: your session may still be active', options)
  }
}

/** Each try of a logout waits at most this long for the API (three fit in the modal's 3 s). */
export const LOGOUT_TIMEOUT_MS = 700
/** The pauses before the second and third try. */
export const LOGOUT_RETRY_DELAYS_MS = [150, 450] as const

/**
 * Ends every session of the user in the project at the API (`POST /auth/v1/logout`), trying
 * three times within ~2.7 s. A 401 (no session left) counts as done. When no try succeeds the
 * credential is kept (cookie and token) for the next try, the sign-out is remembered as owed in
 * this frame's storage ({@link hasPendingLogout}), and {@link LogoutFailedError} is thrown.
 *
 * @example
 * await logout() // throws LogoutFailedError when the API cannot be reached
 */
export const logout = async (): Promise<void> => {
  let last: unknown
  for (const pause of [0, ...LOGOUT_RETRY_DELAYS_MS]) {
    if (pause) await new Promise((resolve) => setTimeout(resolve, pause))
    try {
      await call('POST', '/logout', undefined, AbortSignal.timeout(LOGOUT_TIMEOUT_MS))
      last = undefined
      break
    } catch (error) {
      last = error
      if (error instanceof ApiError && error.status === 401) {
        last = undefined
        break
      }
    }
  }
  if (last === undefined) {
    token = null
    forgetPendingLogout()
    return
  }
  try {
    localStorage.setItem(LOGOUT_PENDING_KEY, '1')
  } catch {
    // No storage in this partition: the owed sign-out is kept in memory for this load only, and
    // `signOut` still answers with the error, so the user sees it and can try again.
  }
  throw new LogoutFailedError({ cause: last })
}

/**
 * Whether a sign-out the API did not confirm is still owed here (set by {@link logout}).
 *
 * @example
 * if (hasPendingLogout()) await logout()
 */
export function hasPendingLogout(): boolean {
  return pendingLogout()
}

function forgetPendingLogout(): void {
  try {
    localStorage.removeItem(LOGOUT_PENDING_KEY)
  } catch {
    // No storage: nothing was written there either.
  }
}
/** The session's share set; `asked`: as for {@link me}. */
export const getShares = (asked?: Promise<Response>) =>
  call<StoredShares>('GET', '/shares', undefined, undefined, asked)
export const putShares = (shares: NewShares) => call<unknown>('PUT', '/shares', shares)
/** Reports that the wallet was set up on this new device or site (the owner is mailed). */
export const reportDevice = (site: string | undefined) =>
  call<void>('POST', '/devices', site ? { site } : {})
/** The wallet's devices (`isNew`: not yet shown on this device). */
export const devices = () => call<{ devices: WalletDevice[] }>('GET', '/devices')
/** Marks the devices' notices shown on this device. */
export const devicesSeen = () => call<void>('POST', '/devices/seen', {})
/** Removes a device of the wallet, with the wallet key's signature (`deviceRemovalDigest`). */
export const revokeDevice = (device: string, signature: string) =>
  call<void>('POST', '/devices/revoke', { device, signature })
export const startEmailUpdate = (newEmail: string) =>
  call<{ action: 'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP' }>('POST', '/email/update/start', {
    newEmail,
  })
export const verifyEmailUpdate = (stage: 'primary' | 'secondary', code: string) =>
  call<{ action?: 'VERIFY_SECONDARY_OTP'; email?: string }>('POST', '/email/update/verify', {
    stage,
    code,
  })

/** The API's origin (the only paymaster service the frame's CSP lets it reach). */
export function apiOrigin(): string {
  return new URL(settings().apiUrl).origin
}

/** The chain RPC proxy of the API (safe methods; bundler and paymaster methods too). */
export async function rpc<T>(caipNetworkId: string, method: string, params: unknown[]): Promise<T> {
  const { apiUrl, projectId } = settings()
  const url = new URL('/v1', apiUrl)
  url.searchParams.set('chainId', caipNetworkId)
  url.searchParams.set('projectId', projectId)
  url.searchParams.set('st', SDK_TYPE)
  url.searchParams.set('sv', SDK_VERSION)
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  })
  const body = (await response.json().catch(() => null)) as {
    result?: T
    error?: { code: number; message: string; data?: unknown }
  } | null
  if (body?.error) throw Object.assign(new BaseError(body.error.message), { code: body.error.code })
  if (!body || !('result' in body)) throw new ApiError(response.status, {})
  return body.result as T
}

/**
 * A JSON call to the API's public `/v1` routes (smart sessions), with the project id.
 *
 * @example
 * await v1('POST', `/sessions/${caipAddress}`, { pci, signer, permissions, expiry })
 */
export async function v1<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const { apiUrl, projectId } = settings()
  const url = new URL(`/v1${path}`, apiUrl)
  url.searchParams.set('projectId', projectId)
  url.searchParams.set('st', SDK_TYPE)
  url.searchParams.set('sv', SDK_VERSION)
  const response = await fetch(url, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  })
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok) throw new ApiError(response.status, json)
  return json as T
}

/**
 * The origins the operator trusts for approvals inside the page (`inlineApprovalOrigins` of the
 * project's public configuration, `GET /projects/v1/origins`). Rejects when the API does not
 * answer it within `timeoutMs`, or answers without the list (an older API).
 *
 * @example
 * const trusted = await inlineApprovalOrigins(5000) // ['http://localhost:4000']
 */
export async function inlineApprovalOrigins(timeoutMs: number): Promise<string[]> {
  const { apiUrl, projectId } = settings()
  const url = new URL('/projects/v1/origins', apiUrl)
  url.searchParams.set('projectId', projectId)
  url.searchParams.set('st', SDK_TYPE)
  url.searchParams.set('sv', SDK_VERSION)
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok) throw new ApiError(response.status, json)
  const list = json.inlineApprovalOrigins
  if (!Array.isArray(list) || !list.every((origin) => typeof origin === 'string'))
    throw new ApiError(response.status, {
      code: 'INVALID_RESPONSE',
      message: 'The project configuration has no inlineApprovalOrigins',
    })
  return list
}

/** Base64 helpers for shares on the wire. */
export const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
export const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
