/**
 * Calls an external provider that speaks the API's own endpoints (a hosted blockchain data
 * service, a 1inch-style swap provider): its configured URL's query parameters (its own project
 * id…) replace the caller's, JSON in and out, one timeout. Network failures are thrown as they
 * come; each caller turns them and the answer into its own errors.
 */

/** A provider bound to its configured URL. */
export type ProviderFetch = (
  path: string,
  query: Record<string, string | undefined>,
  body?: unknown,
) => Promise<Response>

/**
 * Binds a provider URL (`https://data.example.com/base?projectId=key`).
 *
 * @example
 * const fetchFrom = providerFetch({ url, timeoutMs: 10_000 })
 * const response = await fetchFrom('/v1/supported-chains', {})
 */
export function providerFetch(parameters: {
  url: string
  timeoutMs: number
  fetch?: typeof fetch | undefined
}): ProviderFetch {
  const { url, timeoutMs } = parameters
  const fetchFn = parameters.fetch ?? fetch
  const base = new URL(url)
  const fixed = new URLSearchParams(base.search)
  const root = `${base.origin}${base.pathname.replace(/\/+$/, '')}`
  return (path, query, body) => {
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries(query))
      if (value !== undefined) params.set(key, value)
    for (const [key, value] of fixed) params.set(key, value)
    return fetchFn(`${root}${path}?${params}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    })
  }
}
