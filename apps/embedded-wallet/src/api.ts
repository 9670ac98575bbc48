/**
 * Calls to the API's embedded-wallet auth routes (`/auth/v1/…`) and to the recovery key
 * service. The session is an HttpOnly partitioned cookie the API sets (sent with
 * `credentials: 'include'`); the bearer token from the login answer is kept in memory too.
 */
import { BaseError } from '@porthole/protocol'
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

/** The key shares the API keeps for the user. */
export type StoredShares = {
  setId: string
  address: string
  authShare: string
  recoveryCiphertext: string
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

async function call<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
  const { apiUrl, projectId } = settings()
  const url = new URL(`/auth/v1${path}`, apiUrl)
  url.searchParams.set('projectId', projectId)
  url.searchParams.set('st', SDK_TYPE)
  url.searchParams.set('sv', SDK_VERSION)
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token) headers.authorization = `Bearer ${token}`
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  if (response.status === 204) return undefined as T
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok) throw new ApiError(response.status, json)
  return json as T
}

type Session = { token: string; user: ApiUser }
const keep = (session: Session) => {
  token = session.token
  return session.user
}

export const startEmail = (email: string, deviceId: string) =>
  call<{ action: 'VERIFY_DEVICE' | 'VERIFY_OTP' }>('POST', '/email/start', { email, deviceId })
export const deviceStatus = (email: string, deviceId: string) =>
  call<{ approved: boolean }>('POST', '/device/status', { email, deviceId })
export const verifyEmail = async (email: string, deviceId: string, code: string) =>
  keep(await call<Session>('POST', '/email/verify', { email, deviceId, code }))
export const startSocial = (provider: string, deviceId: string) =>
  call<{ uri: string }>('POST', '/social/start', { provider, deviceId })
export const exchangeSocial = async (result: string, deviceId: string) =>
  keep(await call<Session>('POST', '/social/exchange', { result, deviceId }))
export const me = async () => (await call<{ user: ApiUser }>('GET', '/me')).user
export const logout = async () => {
  try {
    await call('POST', '/logout')
  } finally {
    token = null
  }
}
export const getShares = () => call<StoredShares>('GET', '/shares')
export const putShares = (shares: StoredShares) => call<unknown>('PUT', '/shares', shares)
export const recoveryTicket = async () =>
  (await call<{ ticket: string }>('POST', '/recovery/ticket')).ticket
export const startEmailUpdate = (newEmail: string) =>
  call<{ action: 'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP' }>('POST', '/email/update/start', {
    newEmail,
  })
export const verifyEmailUpdate = (stage: 'primary' | 'secondary', code: string) =>
  call<{ action?: 'VERIFY_SECONDARY_OTP'; email?: string }>('POST', '/email/update/verify', {
    stage,
    code,
  })

async function recovery<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(new URL(path, settings().recoveryUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok) throw new ApiError(response.status, json)
  return json as T
}

/** Encrypts the recovery share with the recovery key service (it keeps nothing). */
export const encryptRecoveryShare = async (share: string) =>
  (
    await recovery<{ ciphertext: string }>('/v1/recovery/encrypt', {
      ticket: await recoveryTicket(),
      share,
    })
  ).ciphertext
/** Decrypts the recovery share with the recovery key service. */
export const decryptRecoveryShare = async (ciphertext: string) =>
  (
    await recovery<{ share: string }>('/v1/recovery/decrypt', {
      ticket: await recoveryTicket(),
      ciphertext,
    })
  ).share

/** The chain RPC proxy of the API (safe methods). */
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

/** Base64 helpers for shares on the wire. */
export const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
export const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
