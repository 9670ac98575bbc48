/**
 * A returning user's first requests, started by this small script as soon as it arrives (an
 * `async` module in index.html) while the frame's own code is still being evaluated (issue 26):
 * this device's share record (IndexedDB) and, when there is one (or this origin's localStorage
 * notes one: IndexedDB is slow to open) and no sign-out is owed, the session check and the share
 * set (`GET /auth/v1/me` and `GET /auth/v1/shares`, with the API's partitioned cookie). The
 * restore (`session.ts`) takes them once ({@link takeEarly}) and decides what they mean, as if it
 * had asked itself. A frame with no device share asks nothing here.
 *
 * It imports only `storage.ts` and the protocol's `announce.ts` (which import nothing), so the three
 * are a small file of their own.
 * It starts only in the frame's page (its `<meta name="porthole-early">`), not in the popup window
 * or the social callback page, which share modules with it.
 */
import { announce as begin } from '@porthole/protocol/announce'
import {
  type RestoreNote,
  readDeviceShare,
  restoreNote,
  type StoredDeviceShare,
  shareNoted,
} from './storage.js'

export { takeHandshake } from '@porthole/protocol/announce'

/** SDK type and version sent with API calls (runtime.ts exports them). */
export const EARLY_SDK_TYPE = 'porthole-wallet'
export const EARLY_SDK_VERSION = '0.1.0'
/** Where a sign-out the API did not confirm is remembered (`api.ts`'s logout). */
export const LOGOUT_PENDING_KEY = 'porthole-wallet:logoutPending'

/** The API's answers the restore needs first (not awaited: each is read where it is needed). */
export type EarlyAnswers = { me: Promise<Response>; shares: Promise<Response> }

/** What the restore asks first: this device's share record, then the API's answers. */
export type Early = {
  record: Promise<StoredDeviceShare | undefined>
  /** `undefined`: not asked (no share, a sign-out owed, no API configured). */
  answers: Promise<EarlyAnswers | undefined>
}
let early: Early | undefined

/**
 * The user as `ready` names it (`EmbeddedUser` of the protocol, which this small script does not
 * import): the API's fields of `/auth/v1/me`, the accounts of the restore note.
 */
export type NotedUser = RestoreNote['user'] & {
  email: string | null
  userName: string | null
  socialProvider: string | null
}
/** The restore note's user once `/auth/v1/me` confirmed the session for it (see {@link noted}). */
let notedUser: Promise<NotedUser | undefined> = Promise.resolve(undefined)
let started = false

/**
 * Whether a sign-out the API did not confirm is still owed here (then nothing is restored).
 *
 * @example
 * if (pendingLogout()) await logout()
 */
export function pendingLogout(): boolean {
  try {
    return localStorage.getItem(LOGOUT_PENDING_KEY) === '1'
  } catch {
    return false
  }
}

/** The page's runtime config (its meta tag), or `{}`. */
function config(): { apiUrl?: unknown; modalUrl?: unknown } {
  try {
    const content = document.querySelector('meta[name="porthole-config"]')?.getAttribute('content')
    return content && content !== '__PORTHOLE_CONFIG__' ? JSON.parse(content) : {}
  } catch {
    return {}
  }
}

/** The API URL (the page's runtime config) and the frame URL's project id, or `undefined`. */
function settings(): { api: string; projectId: string } | undefined {
  const api = config().apiUrl
  const projectId = (new URL(location.href).searchParams.get('projectId') ?? '').slice(0, 128)
  return typeof api === 'string' && api && projectId ? { api, projectId } : undefined
}

/**
 * Posts the frame's `ready` to the modal (at the modal origin of the page's runtime config) and
 * keeps what the modal sends back until the frame's code takes it ({@link takeHandshake}), so
 * the modal can answer while that code is still being evaluated. When that code does not start,
 * the modal's `hello` is refused with 'Network Error - Could not load embedded wallet' (what the
 * modal raises when the frame does not load), not left to its 20 s timeout. Once.
 *
 * @example
 * announce()
 */
export function announce(): void {
  const modalUrl = config().modalUrl
  if (typeof modalUrl !== 'string') return
  let origin: string
  try {
    origin = new URL(modalUrl).origin
  } catch {
    // No modal origin in the page's config: no early handshake (main.ts refuses to start).
    return
  }
  begin(origin, {
    code: -32002,
    message: 'Network Error - Could not load embedded wallet',
    data: { reason: 'iframe_load_failed' },
  })
}

/**
 * Starts the early reads (once). The requests carry what `api.ts` would send: the project id, the
 * SDK type and version, the cookie; a failed one is asked again, as the restore would.
 *
 * @example
 * startEarly()
 */
export function startEarly(): void {
  if (started) return
  started = true
  const record = readDeviceShare()
  const config = settings()
  const get = (api: string, projectId: string, path: string) => {
    const url = new URL(`/auth/v1${path}`, api)
    url.searchParams.set('projectId', projectId)
    url.searchParams.set('st', EARLY_SDK_TYPE)
    url.searchParams.set('sv', EARLY_SDK_VERSION)
    const init: RequestInit = { credentials: 'include' }
    return fetch(url, init).catch(() => fetch(url, init))
  }
  const ask = (has: boolean): EarlyAnswers | undefined =>
    has && config && !pendingLogout()
      ? {
          me: get(config.api, config.projectId, '/me'),
          shares: get(config.api, config.projectId, '/shares'),
        }
      : undefined
  // A share noted in localStorage (read at once) starts the session check now, before IndexedDB
  // answers; else the share itself is waited for.
  const noted = shareNoted() ? ask(true) : undefined
  early = {
    record,
    answers: noted ? Promise.resolve(noted) : record.then((stored) => ask(!!stored)),
  }
  const note = noted && restoreNote()
  // Read from a copy, before anyone else reads the answer (the restore reads it too).
  if (note) notedUser = noted.me.then((response) => confirmedNote(note, response.clone()))
  notedUser.catch(() => undefined)
}

/** The note's user when the API's session (`/auth/v1/me`'s answer) is the same user's. */
async function confirmedNote(
  note: RestoreNote,
  response: Response,
): Promise<NotedUser | undefined> {
  if (!response.ok) return undefined
  const body = (await response.json().catch(() => null)) as {
    user?: { id?: unknown; email?: unknown; username?: unknown; socialProvider?: unknown }
  } | null
  const user = body?.user
  const text = (value: unknown) => (typeof value === 'string' ? value : null)
  if (!user || user.id !== note.userId) return undefined
  return {
    ...note.user,
    email: text(user.email),
    userName: text(user.username),
    socialProvider: text(user.socialProvider),
  }
}

/**
 * The user the restore note names, once the API confirmed a session for the same user (the
 * early `/auth/v1/me`), before the key is rebuilt; `undefined` when there is no note, no early
 * session check, another user's session, or none. Only a name: the rebuilt key decides (main.ts).
 *
 * @example
 * const user = await noted()
 */
export function noted(): Promise<NotedUser | undefined> {
  return notedUser
}

/**
 * What was read early, once (`undefined` when nothing started early, or it was taken: read and
 * ask yourself). The record and both answers are taken together, so no answer is left for a later
 * request.
 *
 * @example
 * const taken = takeEarly()
 */
export function takeEarly(): Early | undefined {
  const taken = early
  early = undefined
  return taken
}

if (typeof document !== 'undefined' && document.querySelector('meta[name="porthole-early"]')) {
  announce()
  startEarly()
}
