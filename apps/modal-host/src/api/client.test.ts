import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { alertFor, configureApi, getRemoteFeatures } from './client.js'

const Catalogue = await import('../actions/catalogue.js')
const { store, initialState } = await import('../store/store.js')

/** The API answers every request with `status` and `body`; the requests are recorded. */
function answer(status: number, body: unknown) {
  const requests: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      requests.push(url)
      return new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      })
    }),
  )
  return requests
}

beforeEach(() => {
  configureApi('http://api.test', 'project-1')
  store.setState(initialState(), true)
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('service alerts (spec §8)', () => {
  test("a 5xx answer shows 'Server Error'", async () => {
    answer(503, { code: 'CHAIN_UNAVAILABLE', message: 'Chain data unavailable' })
    await Catalogue.loadInitial()
    expect(store.getState().alert).toEqual({ code: 503, message: 'Server Error', fatal: false })
    expect(store.getState().catalogue.status).toBe('error')
  })

  test("a 500 from any call maps to 'Server Error' too", async () => {
    answer(500, { code: 'SERVER_ERROR', message: 'Server Error' })
    const error = await getRemoteFeatures().catch((e: unknown) => e)
    expect(alertFor(error)).toEqual({ code: 500, message: 'Server Error', fatal: false })
  })

  test("a 429 answer shows 'Rate Limited'", async () => {
    answer(429, { code: 'RATE_LIMITED', message: 'Rate Limited' })
    await Catalogue.loadInitial()
    expect(store.getState().alert).toEqual({ code: 429, message: 'Rate Limited', fatal: false })
  })

  test("403 answers are fatal: 'Origin Not Allowed' or 'Invalid Project ID'", async () => {
    answer(403, { code: 'ORIGIN_NOT_ALLOWED', message: 'Origin Not Allowed' })
    await Catalogue.loadInitial()
    expect(store.getState().alert).toEqual({
      code: 4100,
      message: 'Origin Not Allowed',
      fatal: true,
    })
    answer(403, { code: 'INVALID_PROJECT_ID', message: 'Invalid Project ID' })
    const error = await getRemoteFeatures().catch((e: unknown) => e)
    expect(alertFor(error)).toMatchObject({ message: 'Invalid Project ID', fatal: true })
  })

  test('a failure that is not an HTTP answer raises no alert', () => {
    expect(alertFor(new TypeError('Failed to fetch'))).toBeUndefined()
  })
})

describe('remote features (with the allowlist, else GET /appkit/v1/config)', () => {
  test('are read for the project in the allowlist answer, keys validated one by one', async () => {
    const requests = answer(200, {
      allowedOrigins: [],
      features: { email: false, socials: ['github'], activity: 'maybe', swaps: false },
    })
    expect(await getRemoteFeatures()).toEqual({ email: false, socials: ['github'], swaps: false })
    expect(requests).toHaveLength(1)
    const url = new URL(requests[0] as string)
    expect(url.pathname).toBe('/projects/v1/origins')
    expect(url.searchParams.get('projectId')).toBe('project-1')
  })
})
