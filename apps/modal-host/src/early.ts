/**
 * The modal's first requests, started by a tiny script that runs as soon as it arrives (an
 * `async` module in index.html), while the app's own code is still downloading and being
 * evaluated: the project's allowlist and remote features, the first wallets of the catalogue, and
 * then those wallets' images, which Connect draws (the social buttons' logos are bundled). Without it they started
 * only after the handshake, ~200 ms later on a cold visit, one after the other.
 *
 * It also begins the host handshake ({@link announce}): `ready` goes to the host page as soon as
 * this file runs, and the host's `hello` waits here for the app, so the app shakes hands the moment
 * its code has run instead of one host round trip later.
 *
 * It imports only the protocol's `announce.ts` (which imports nothing), so the two are a small
 * file of their own; the app takes each answer once, by URL ({@link takeEarly}), when it asks for
 * the same thing. Everything here is public data the app would fetch anyway; the app still checks
 * the allowlist itself.
 */
import { announce as begin } from '@porthole/protocol/announce'

export { takeHandshake } from '@porthole/protocol/announce'

/** The API's answers fetched early, by URL without the request id. */
const early = new Map<string, Promise<Response>>()
/** Images fetched early: held so that the fetch is not dropped, then in the HTTP cache. */
const images: HTMLImageElement[] = []

/** The SDK type and version the modal sends with every API call (runtime.ts exports them). */
export const EARLY_SDK_TYPE = 'porthole'
export const EARLY_SDK_VERSION = '0.1.0'

/** How many catalogue wallets Connect asks for first (actions/catalogue.ts's `CONNECT_ENTRIES`). */
export const EARLY_WALLET_ENTRIES = 4

/**
 * The trace id the host's SDK put in the frame URL's fragment (`#trace=…`) when it is a plain
 * token, else a fresh random one: API calls carry `<trace>.<n>` as their request id.
 */
export const pageTrace: string = typeof location === 'undefined' ? '' : traceOf(location.hash)

/**
 * `trace=` from a fragment when it is a plain token, else a fresh random one.
 *
 * @example
 * traceOf('#trace=k3v9x0a2qz') // 'k3v9x0a2qz'
 */
export function traceOf(hash: string): string {
  const given = new URLSearchParams(hash.slice(1)).get('trace') ?? ''
  return /^[A-Za-z0-9_-]{1,64}$/.test(given) ? given : Math.random().toString(36).slice(2, 12)
}

/**
 * A URL without its request id, its query sorted: what an early answer is found by.
 *
 * @example
 * earlyKey('https://api/x?rid=t.1&b=2&a=1') // 'https://api/x?a=1&b=2'
 */
export function earlyKey(url: string): string {
  const parsed = new URL(url)
  parsed.searchParams.delete('rid')
  parsed.searchParams.sort()
  return parsed.href
}

/**
 * The early answer for a GET of `url`, once; `undefined` when there is none (then fetch it).
 *
 * @example
 * const response = takeEarly(url) ?? fetch(url)
 */
export function takeEarly(url: string): Promise<Response> | undefined {
  const key = earlyKey(url)
  const response = early.get(key)
  early.delete(key)
  return response
}

/**
 * The host page's origin named in the frame URL (`?origin=`), when it is exactly an origin; else
 * `''` (then the modal does not start).
 *
 * @example
 * hostOriginOf('https://modal/?origin=https%3A%2F%2Fdapp.example') // 'https://dapp.example'
 */
export function hostOriginOf(href: string): string {
  try {
    const origin = new URL(href).searchParams.get('origin') ?? ''
    return origin && new URL(origin).origin === origin ? origin : ''
  } catch {
    // Not a URL: no host origin, so the modal does not start (main.tsx says why).
    return ''
  }
}

/**
 * Posts the modal's `ready` to the host page (at the exact origin the frame URL names) and keeps
 * what the host page sends back until the app takes it ({@link takeHandshake}), so the host's
 * `hello` is waiting when the app's code has run. When the app's code does not start, the host's
 * `hello` is refused with the SDK's own load failure ('Network Error - Could not load the
 * modal'), not left to its 20 s timeout. Once; nothing outside a frame or without a host origin.
 *
 * @example
 * announce()
 */
export function announce(): void {
  const origin = hostOriginOf(location.href)
  if (origin) begin(origin, { code: 4100, message: 'Network Error - Could not load the modal' })
}

/** The API URL and project id of this page, or `undefined` when either is missing. */
function settings(): { api: string; projectId: string } | undefined {
  try {
    const content = document.querySelector('meta[name="porthole-config"]')?.getAttribute('content')
    const api = content && content !== '__PORTHOLE_CONFIG__' ? JSON.parse(content).apiUrl : ''
    const projectId = (new URL(location.href).searchParams.get('projectId') ?? '').slice(0, 128)
    return typeof api === 'string' && api && projectId ? { api, projectId } : undefined
  } catch {
    return undefined
  }
}

function preload(src: unknown): void {
  if (typeof src !== 'string' || !/^https?:\/\//.test(src)) return
  const image = new Image()
  image.decoding = 'async'
  image.src = src
  images.push(image)
}

/**
 * Starts the early requests (once, in the browser; nothing when the page has no API or project).
 * The request ids are `<trace>.e1` and `<trace>.e2`.
 */
export function startEarly(): void {
  const config = settings()
  if (!config || early.size > 0) return
  const base = `${config.api.replace(/\/$/, '')}/`
  const url = (path: string, query: Record<string, string> = {}) => {
    const target = new URL(path, base)
    const all = { projectId: config.projectId, st: EARLY_SDK_TYPE, sv: EARLY_SDK_VERSION, ...query }
    for (const [key, value] of Object.entries(all)) target.searchParams.set(key, value)
    return target.href
  }
  const get = (path: string, query: Record<string, string>, rid: string) => {
    const target = url(path, query)
    const response = fetch(`${target}&rid=${encodeURIComponent(`${pageTrace}.${rid}`)}`)
    // A failed early fetch leaves the app to fetch again itself.
    early.set(
      earlyKey(target),
      response.catch(() => fetch(target)),
    )
    return response
  }
  const read = (response: Response) => (response.ok ? response.clone().json() : undefined)
  // Only a head start is lost if it fails: the app asks again itself and reports what fails.
  get('/projects/v1/origins', {}, 'e1').catch(() => {})
  get('/getWallets', { page: '1', entries: String(EARLY_WALLET_ENTRIES) }, 'e2')
    .then(read)
    .then((page: { data?: { image_url?: unknown }[] } | undefined) => {
      for (const wallet of page?.data?.slice(0, EARLY_WALLET_ENTRIES) ?? [])
        preload(wallet.image_url)
    })
    // Same: the app fetches the catalogue and its images itself when this fails.
    .catch(() => {})
}

if (typeof document !== 'undefined') {
  announce()
  startEarly()
}
