/**
 * Runtime settings the static host writes into the page (`<meta name="porthole-config">`),
 * so one build serves any deployment; the URL carries the project id and host origin.
 */
import { DEFAULT_ENDPOINTS } from '@porthole/shared'
import { EARLY_SDK_TYPE, EARLY_SDK_VERSION, hostOriginOf, pageTrace, traceOf } from './early.js'

export type Runtime = {
  apiUrl: string
  walletUrl: string
  modalUrl: string
  relayUrl: string
  /** The WalletConnect Cloud project id for the relay ('' = send the Porthole project id). */
  walletConnectProjectId: string
  /** Origins of chain RPC endpoints the modal may call besides the API (its CSP allows them). */
  rpcOrigins: string[]
  projectId: string
  /** The host page's origin, from the frame URL; `''` when missing or malformed. */
  hostOrigin: string
  /**
   * The trace id the host's SDK put in the frame URL's fragment (`#trace=…`), else one of our
   * own: the API calls of this page carry `<trace>.<n>` as their request id, so one user's
   * steps can be followed from the host through the modal to the API's logs.
   */
  trace: string
}

/** Reads the runtime settings once. */
export function readRuntime(doc: Document = document, href = location.href): Runtime {
  let meta: Partial<Runtime> = {}
  try {
    const content = doc.querySelector('meta[name="porthole-config"]')?.getAttribute('content')
    if (content && content !== '__PORTHOLE_CONFIG__') meta = JSON.parse(content)
  } catch {}
  const url = new URL(href)
  const hostOrigin = hostOriginOf(href)
  return {
    apiUrl: meta.apiUrl ?? DEFAULT_ENDPOINTS.api,
    walletUrl: meta.walletUrl ?? DEFAULT_ENDPOINTS.wallet,
    modalUrl: meta.modalUrl ?? url.origin,
    relayUrl: meta.relayUrl ?? DEFAULT_ENDPOINTS.relay,
    walletConnectProjectId:
      typeof meta.walletConnectProjectId === 'string' ? meta.walletConnectProjectId : '',
    rpcOrigins: Array.isArray(meta.rpcOrigins)
      ? meta.rpcOrigins.filter((o): o is string => typeof o === 'string')
      : [],
    projectId: (url.searchParams.get('projectId') ?? '').slice(0, 128),
    hostOrigin,
    // This page's own trace is the one its early requests already sent.
    trace:
      typeof location !== 'undefined' && href === location.href ? pageTrace : traceOf(url.hash),
  }
}

/** The runtime of this page. */
export const runtime: Runtime =
  typeof document === 'undefined' ? (undefined as never) : readRuntime()

/** SDK type and version sent with API calls (spec §9: SDK version 4 is AppKit's; ours is 1). */
export const SDK_TYPE = EARLY_SDK_TYPE
export const SDK_VERSION = EARLY_SDK_VERSION
