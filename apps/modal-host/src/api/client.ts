/**
 * The modal's API calls (spec §7 "Wallet provider configuration service"), with failures
 * mapped to the spec's alerts.
 */
import { Checks, type LoginProvider, type RemoteFeatures } from '@porthole/protocol'
import { createHttpClient, type HttpClient, HttpError } from '@porthole/shared'
import { takeEarly } from '../early.js'
import type { CatalogueWallet } from '../rules/walletLists.js'
import { SDK_TYPE, SDK_VERSION } from '../runtime.js'
import type { Alert } from '../store/types.js'

let http: HttpClient | undefined

/** Binds the client to the API and project (at handshake). */
export function configureApi(apiUrl: string, projectId: string, trace?: string): void {
  let calls = 0
  http = createHttpClient({
    baseUrl: apiUrl,
    query: { projectId, st: SDK_TYPE, sv: SDK_VERSION },
    // A GET the page's early script already sent (early.ts) takes that answer, once.
    fetch: (input, init) =>
      (!init?.method || init.method === 'GET' ? takeEarly(String(input)) : undefined) ??
      fetch(input, init),
    ...(trace ? { requestId: () => `${trace}.${++calls}` } : {}),
  })
  projectConfig = undefined
}

function client(): HttpClient {
  if (!http) throw new Error('API client used before the handshake')
  return http
}

/**
 * The client bound at handshake, for modules that add endpoints (api/blockchain.ts).
 *
 * @example
 * const chains = await getApiClient().get('/v1/supported-chains')
 */
export function getApiClient(): HttpClient {
  return client()
}

let projectConfig: Promise<{ allowedOrigins?: unknown; features?: unknown }> | undefined

/** `/projects/v1/origins`, asked once per handshake: the allowlist and the remote features. */
function readProjectConfig() {
  projectConfig ??= client().get('/projects/v1/origins')
  projectConfig.catch(() => {
    projectConfig = undefined
  })
  return projectConfig
}

/** `/projects/v1/origins`: the project's allowed host origins. */
export async function getAllowedOrigins(): Promise<string[]> {
  const { allowedOrigins } = await readProjectConfig()
  return Array.isArray(allowedOrigins) ? allowedOrigins.filter((o) => typeof o === 'string') : []
}

/**
 * `/appkit/v1/config`: the project's remote features (spec §7), validated; keys that fail
 * their schema are left out (the spec's defaults apply to them).
 */
export async function getRemoteFeatures(): Promise<RemoteFeatures> {
  // One request before the first click: the allowlist's answer carries them (an API without
  // that field is asked at `/appkit/v1/config`).
  const carried = (await readProjectConfig().catch(() => ({ features: undefined }))).features
  const { features } =
    carried === undefined
      ? await client().get<{ features?: unknown }>('/appkit/v1/config')
      : { features: carried }
  const out: Record<string, unknown> = {}
  if (features && typeof features === 'object')
    for (const [key, value] of Object.entries(features)) {
      const schema = Object.hasOwn(Checks.RemoteFeatures.shape, key)
        ? Checks.RemoteFeatures.shape[key]
        : undefined
      const parsed = schema?.safeParse(value)
      if (parsed?.success) out[key] = parsed.data
      // Spec §5: an on-ramp provider list that is not a list of strings is empty.
      else if (key === 'onramp') out[key] = false
    }
  return out as RemoteFeatures
}

/** Parameters of {@link getWallets}. */
export type GetWalletsParameters = {
  page: number
  entries: number
  search?: string | undefined
  include?: readonly string[] | undefined
  exclude?: readonly string[] | undefined
  chains?: readonly string[] | undefined
}

/** `/getWallets`: one page of the catalogue and the total count. */
export async function getWallets(
  parameters: GetWalletsParameters,
): Promise<{ data: CatalogueWallet[]; count: number }> {
  const { include, exclude, chains, search, ...rest } = parameters
  return client().get('/getWallets', {
    ...rest,
    ...(search ? { search } : {}),
    ...(include?.length ? { include } : {}),
    ...(exclude?.length ? { exclude } : {}),
    ...(chains?.length ? { chains } : {}),
  })
}

/** An absolute URL for a network image. */
export function networkImageUrl(imageId: string): string {
  return client().url(`/public/getAssetImage/${encodeURIComponent(imageId)}`)
}

/**
 * An absolute URL for a social login provider's logo (the API's `/public/getSocialImage`).
 *
 * @example
 * socialImageUrl('google') // 'https://api…/public/getSocialImage/google?projectId=…'
 */
export function socialImageUrl(provider: LoginProvider): string {
  return client().url(`/public/getSocialImage/${encodeURIComponent(provider)}`)
}

/**
 * The alert for a failed API call (spec §8): 429 'Rate Limited', 5xx 'Server Error', 403 or
 * 400 'Invalid Project ID'; `undefined` for errors that are not HTTP answers.
 *
 * @example
 * const alert = alertFor(error)
 */
export function alertFor(error: unknown): Alert | undefined {
  if (!(error instanceof HttpError)) return undefined
  if (error.status === 429) return { code: 429, message: 'Rate Limited', fatal: false }
  if (error.status >= 500) return { code: error.status, message: 'Server Error', fatal: false }
  if (error.status === 403 || error.status === 400) {
    const code = (error.body as { code?: string } | undefined)?.code
    if (code === 'ORIGIN_NOT_ALLOWED')
      return { code: 4100, message: 'Origin Not Allowed', fatal: true }
    return { code: 4100, message: 'Invalid Project ID', fatal: true }
  }
  return undefined
}
