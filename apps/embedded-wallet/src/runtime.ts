/**
 * Runtime settings the static host writes into the page, and the frame URL's project id.
 */
import { DEFAULT_ENDPOINTS } from '@porthole/shared'
import { EARLY_SDK_TYPE, EARLY_SDK_VERSION } from './early.js'

export type Runtime = {
  apiUrl: string
  modalUrl: string
  walletUrl: string
  recoveryUrl: string
  projectId: string
  /** EVM chain ids with smart accounts (absent: the devnets). */
  smartAccountNetworks?: number[]
  /** The smart-account factory on those networks (absent: the devnets'). */
  smartAccountFactory?: `0x${string}`
}

/** Reads the runtime settings of this page. */
export function readRuntime(doc: Document = document, href = location.href): Runtime {
  let meta: Partial<Runtime> = {}
  try {
    const content = doc.querySelector('meta[name="porthole-config"]')?.getAttribute('content')
    if (content && content !== '__PORTHOLE_CONFIG__') meta = JSON.parse(content)
  } catch {}
  const url = new URL(href)
  return {
    apiUrl: meta.apiUrl ?? DEFAULT_ENDPOINTS.api,
    modalUrl: meta.modalUrl ?? DEFAULT_ENDPOINTS.modal,
    walletUrl: meta.walletUrl ?? url.origin,
    recoveryUrl: meta.recoveryUrl ?? DEFAULT_ENDPOINTS.recovery,
    projectId: (url.searchParams.get('projectId') ?? '').slice(0, 128),
    ...(Array.isArray(meta.smartAccountNetworks) &&
    meta.smartAccountNetworks.every((id) => Number.isSafeInteger(id) && id > 0)
      ? { smartAccountNetworks: meta.smartAccountNetworks.slice(0, 100) }
      : {}),
    ...(typeof meta.smartAccountFactory === 'string' &&
    /^0x[0-9a-fA-F]{40}$/.test(meta.smartAccountFactory)
      ? { smartAccountFactory: meta.smartAccountFactory }
      : {}),
  }
}

/** SDK type and version sent with API calls (the early requests send the same). */
export const SDK_TYPE = EARLY_SDK_TYPE
export const SDK_VERSION = EARLY_SDK_VERSION
