/**
 * The analytics and error-report client (spec §7 "Analytics and error report", §8 "Analytics
 * 403", §9 "Error reports: 5 per 60 s"): `POST /e?projectId&st&sv` on the API with
 * `{ eventId, url, domain, timestamp, props }`, as apps/api/src/routes/analytics.ts accepts it.
 *
 * - Off when the dapp's `features.analytics` is false (nothing is requested at all) or the
 *   project's `/getAnalyticsConfig` answers `isAnalyticsEnabled: false` (asked once per client;
 *   a failed ask counts as off for that event and is asked again for the next).
 * - A 403 from either endpoint calls `onInvalidConfig` exactly once for the client's life (make
 *   one client per page; the caller shows 'Invalid App Configuration') and turns the client off.
 * - Error reports: at most 5 in any 60 s (sliding window); tracked events are not limited.
 * - `fetch` with `keepalive: true`, so a report survives the frame closing.
 * - Never throws and never rejects: analytics must not break what it watches.
 */
import { SDK_TYPE, SDK_VERSION } from '../runtime.js'
import { type ErrorCategory, toReportableError } from './errors.js'
import { createRateLimiter } from './rateLimiter.js'

/** Properties of each tracked event. */
export type AnalyticsEventProperties = {
  MODAL_OPEN: { connected: boolean }
  MODAL_CLOSE: { connected: boolean }
  CONNECT_SUCCESS: { method: 'browser' | 'walletconnect' | 'email' | 'social'; name: string }
  CONNECT_ERROR: { message: string }
  DISCONNECT_SUCCESS: Record<string, never>
  SWITCH_NETWORK: { network: string }
  SEND_INITIATED: { network: string; token: string; amount: string }
  SEND_SUCCESS: { network: string; token: string; amount: string }
  SEND_ERROR: { network: string; token: string; amount: string; message: string }
  SWAP_INITIATED: { network: string; from: string; to: string }
  SWAP_SUCCESS: { network: string; from: string; to: string }
  SWAP_ERROR: { network: string; from: string; to: string; message: string }
  ONRAMP_OPENED: { network: string; provider: string; currency: string }
  ONRAMP_COMPLETE: { network: string; provider: string; currency: string }
}

/** A tracked event's name. */
export type AnalyticsEventName = keyof AnalyticsEventProperties

/**
 * The largest body the API stores (`MAX_EVENT_BYTES` of apps/api/src/routes/analytics.ts): an
 * error report's stack, then its message, are cut until the JSON fits.
 */
export const MAX_EVENT_BYTES = 8 * 1024
/** The longest error message the API accepts, in characters. */
export const MAX_ERROR_MESSAGE = 1000
/** The longest stack trace the API accepts, in characters. */
export const MAX_STACK_TRACE = 4000

/** Error reports at most this many per {@link ERROR_REPORT_WINDOW_MS} (spec §9). */
export const ERROR_REPORT_LIMIT = 5
/** The error-report window (spec §9). */
export const ERROR_REPORT_WINDOW_MS = 60_000

/** Parameters of {@link createAnalytics}. */
export type CreateAnalyticsParameters = {
  apiUrl: string
  projectId: string
  /** The page the events are about (the host page's URL or origin): `url` and `domain`. */
  url: string
  /** The dapp's `features.analytics` option (default on, spec §9). */
  enabled?: boolean | undefined
  /** Called once when the API answers 403 (spec §8: 'Invalid App Configuration'). */
  onInvalidConfig?: (() => void) | undefined
  fetch?: typeof fetch | undefined
  /** The clock (ms), for timestamps and the report window. */
  now?: (() => number) | undefined
  /** Event ids; `crypto.randomUUID` by default. */
  eventId?: (() => string) | undefined
}

/** Options of a tracked event. */
export type SendEventOptions = { address?: string | undefined }

/** Options of an error report. */
export type ReportErrorOptions = {
  /** The category, when the caller knows better than the inference. */
  category?: ErrorCategory | undefined
  /** The event name: 'ERROR', or e.g. 'iframe_load_failed', 'iframe_request_timeout' (spec §8). */
  event?: string | undefined
}

/** The client {@link createAnalytics} returns. */
export type Analytics = {
  /** Tracks an event; resolves when sent or dropped, never rejects. */
  sendEvent: <name extends AnalyticsEventName>(
    event: name,
    properties: AnalyticsEventProperties[name],
    options?: SendEventOptions,
  ) => Promise<void>
  /** Reports an error (wrapped with a category), rate limited; never rejects. */
  reportError: (error: unknown, options?: ReportErrorOptions) => Promise<void>
  /** Whether events are currently sent (asks the project's config when not known yet). */
  isEnabled: () => Promise<boolean>
}

function randomId(): string {
  const crypto = globalThis.crypto
  if (crypto?.randomUUID) return crypto.randomUUID()
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
}

/**
 * Creates the analytics client of a page.
 *
 * @example
 * const analytics = createAnalytics({
 *   apiUrl: runtime.apiUrl, projectId, url: runtime.hostOrigin,
 *   enabled: options.features?.analytics, onInvalidConfig: () => showToast(t('invalidAppConfiguration')),
 * })
 * void analytics.sendEvent('SEND_INITIATED', { network: 'eip155:1', token: 'ETH', amount: '1' })
 */
export function createAnalytics(parameters: CreateAnalyticsParameters): Analytics {
  const doFetch = parameters.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  const now = parameters.now ?? Date.now
  const eventId = parameters.eventId ?? randomId
  const limiter = createRateLimiter({ limit: ERROR_REPORT_LIMIT, windowMs: ERROR_REPORT_WINDOW_MS })
  let domain = ''
  try {
    domain = new URL(parameters.url).hostname
  } catch {}

  let off = parameters.enabled === false
  let invalidReported = false
  /** The project's answer; `final: false` (a failed ask) is asked again next time. */
  let remote: Promise<{ enabled: boolean; final: boolean }> | undefined

  const endpoint = (path: string) => {
    const url = new URL(path, parameters.apiUrl)
    url.searchParams.set('projectId', parameters.projectId)
    url.searchParams.set('st', SDK_TYPE)
    url.searchParams.set('sv', SDK_VERSION)
    return url.href
  }

  const invalidConfig = () => {
    off = true
    if (invalidReported) return
    invalidReported = true
    try {
      parameters.onInvalidConfig?.()
    } catch {}
  }

  const askConfig = async (): Promise<{ enabled: boolean; final: boolean }> => {
    try {
      const response = await doFetch(endpoint('/getAnalyticsConfig'), { method: 'GET' })
      if (response.status === 403) {
        invalidConfig()
        return { enabled: false, final: true }
      }
      if (!response.ok) return { enabled: false, final: false }
      const body = (await response.json()) as { isAnalyticsEnabled?: unknown } | null
      return { enabled: body?.isAnalyticsEnabled === true, final: true }
    } catch {
      return { enabled: false, final: false }
    }
  }

  const isEnabled = async () => {
    if (off) return false
    remote ??= askConfig()
    const pending = remote
    const { enabled, final } = await pending
    if (!final && remote === pending) remote = undefined
    return enabled && !off
  }

  const post = async (props: Record<string, unknown>) => {
    const envelope = { eventId: eventId(), url: parameters.url, domain, timestamp: now() }
    const body = fitted(envelope, props)
    if (body === undefined) return
    const response = await doFetch(endpoint('/e'), {
      method: 'POST',
      keepalive: true,
      headers: { 'content-type': 'application/json' },
      body,
    })
    if (response.status === 403) invalidConfig()
  }

  return {
    isEnabled,
    async sendEvent(event, properties, options = {}) {
      try {
        if (!(await isEnabled())) return
        await post({
          type: 'track',
          event,
          ...(options.address ? { address: options.address } : {}),
          properties,
        })
      } catch {}
    },
    async reportError(error, options = {}) {
      try {
        if (!(await isEnabled())) return
        if (!limiter.take(now())) return
        const reportable = toReportableError(error, options.category)
        const cause = reportable.cause
        const stack = cause instanceof Error ? cause.stack : reportable.stack
        await post({
          type: 'error',
          event: (options.event ?? 'ERROR').slice(0, 100),
          errorType: reportable.category,
          errorMessage: reportable.shortMessage.slice(0, MAX_ERROR_MESSAGE),
          ...(stack ? { stackTrace: stack.slice(0, MAX_STACK_TRACE) } : {}),
        })
      } catch {}
    },
  }
}

/**
 * The JSON body of an event within {@link MAX_EVENT_BYTES} (UTF-8): an error report's stack is
 * cut, then its message, until it fits; undefined when even that does not fit (a tracked event
 * too large to send is dropped, as the API would refuse it).
 */
function fitted(
  envelope: Record<string, unknown>,
  props: Record<string, unknown>,
): string | undefined {
  const encoder = new TextEncoder()
  let current = props
  for (;;) {
    const body = JSON.stringify({ ...envelope, props: current })
    const over = encoder.encode(body).length - MAX_EVENT_BYTES
    if (over <= 0) return body
    // A character is at most 3 bytes of UTF-8: cutting a third of the excess each turn ends.
    const cut = Math.ceil(over / 3)
    const { stackTrace, errorMessage } = current
    if (typeof stackTrace === 'string' && stackTrace.length > 0)
      current = {
        ...current,
        stackTrace: stackTrace.slice(0, Math.max(0, stackTrace.length - cut)),
      }
    else if (typeof errorMessage === 'string' && errorMessage.length > 0)
      current = {
        ...current,
        errorMessage: errorMessage.slice(0, Math.max(0, errorMessage.length - cut)),
      }
    else return undefined
  }
}
