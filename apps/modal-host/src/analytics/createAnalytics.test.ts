import { HttpError } from '@porthole/shared'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { type RecordingServer, startRecordingServer } from '../../test/recordingServer.js'
import { type CreateAnalyticsParameters, createAnalytics } from './createAnalytics.js'
import { ReportableError } from './errors.js'

/** A real API stand-in: answers `/getAnalyticsConfig` and `/e` as told and records requests. */
async function apiServer(answers: { config?: () => [number, unknown]; post?: () => number } = {}) {
  const server = await startRecordingServer((request) => {
    if (request.path !== '/getAnalyticsConfig') return { status: answers.post?.() ?? 204 }
    const [status, body] = answers.config?.() ?? [200, { isAnalyticsEnabled: true }]
    return { status, body }
  })
  servers.push(server)
  return {
    url: server.url,
    received: server.received,
    posts: () => server.received.filter((r) => r.path === '/e'),
  }
}

const servers: RecordingServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

let clock = 1_700_000_000_000
let ids = 0
function analyticsFor(apiUrl: string, overrides: Partial<CreateAnalyticsParameters> = {}) {
  const inits: RequestInit[] = []
  const analytics = createAnalytics({
    apiUrl,
    projectId: 'proj',
    url: 'https://app.example.com/swap?x=1',
    now: () => clock,
    eventId: () => `id-${ids++}`,
    fetch: (input, init) => {
      inits.push(init ?? {})
      return fetch(input, init)
    },
    ...overrides,
  })
  return { analytics, inits }
}

describe('tracked events (spec §7)', () => {
  test('an event is posted to /e with the body the API accepts', async () => {
    const api = await apiServer()
    const { analytics, inits } = analyticsFor(api.url)
    await analytics.sendEvent(
      'SEND_INITIATED',
      { network: 'eip155:31337', token: 'ETH', amount: '1.5' },
      { address: '0xabc' },
    )
    const [post] = api.posts()
    expect(post?.method).toBe('POST')
    expect(post?.query).toEqual({ projectId: 'proj', st: 'porthole', sv: '0.1.0' })
    expect(post?.body).toEqual({
      eventId: expect.stringMatching(/^id-\d+$/),
      url: 'https://app.example.com/swap?x=1',
      domain: 'app.example.com',
      timestamp: clock,
      props: {
        type: 'track',
        event: 'SEND_INITIATED',
        address: '0xabc',
        properties: { network: 'eip155:31337', token: 'ETH', amount: '1.5' },
      },
    })
    const postInit = inits.find((init) => init.method === 'POST')
    expect(postInit?.keepalive).toBe(true)
    expect(new Headers(postInit?.headers).get('content-type')).toBe('application/json')
  })

  test('the project config is asked once for many events', async () => {
    const api = await apiServer()
    const { analytics } = analyticsFor(api.url)
    await Promise.all([
      analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' }),
      analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:8453' }),
    ])
    await analytics.sendEvent('SEND_SUCCESS', { network: 'eip155:1', token: 'ETH', amount: '1' })
    expect(api.received.filter((r) => r.path === '/getAnalyticsConfig').length).toBe(1)
    expect(api.received.find((r) => r.path === '/getAnalyticsConfig')?.query).toEqual({
      projectId: 'proj',
      st: 'porthole',
      sv: '0.1.0',
    })
    expect(api.posts().map((p) => (p.body as { props: { event: string } }).props.event)).toEqual([
      'SWITCH_NETWORK',
      'SWITCH_NETWORK',
      'SEND_SUCCESS',
    ])
  })

  test('features.analytics false sends nothing at all', async () => {
    const api = await apiServer()
    const { analytics } = analyticsFor(api.url, { enabled: false })
    await analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' })
    await analytics.reportError(new Error('boom'))
    expect(await analytics.isEnabled()).toBe(false)
    expect(api.received).toEqual([])
  })

  test('a project with analytics off gets no events', async () => {
    const api = await apiServer({ config: () => [200, { isAnalyticsEnabled: false }] })
    const { analytics } = analyticsFor(api.url)
    await analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' })
    await analytics.reportError(new Error('boom'))
    expect(api.posts()).toEqual([])
    expect(await analytics.isEnabled()).toBe(false)
  })

  test('a config that fails to load is asked again for the next event', async () => {
    let status = 503
    const api = await apiServer({ config: () => [status, { isAnalyticsEnabled: true }] })
    const { analytics } = analyticsFor(api.url)
    await analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' })
    expect(api.posts()).toEqual([])
    status = 200
    await analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:8453' })
    expect(api.posts().length).toBe(1)
  })
})

describe('error reports (spec §7, §9)', () => {
  test('an error is posted with its category, message and stack', async () => {
    const api = await apiServer()
    const { analytics } = analyticsFor(api.url)
    await analytics.reportError(new HttpError(502, null))
    await analytics.reportError(new Error('frame did not answer'), {
      category: 'EMBEDDED_WALLET_ERROR',
      event: 'iframe_request_timeout',
    })
    const props = api.posts().map((p) => (p.body as { props: Record<string, unknown> }).props)
    expect(props[0]).toMatchObject({
      type: 'error',
      event: 'ERROR',
      errorType: 'API_ERROR',
      errorMessage: 'HTTP status code: 502',
      stackTrace: expect.stringContaining('HttpError'),
    })
    expect(props[1]).toMatchObject({
      type: 'error',
      event: 'iframe_request_timeout',
      errorType: 'EMBEDDED_WALLET_ERROR',
      errorMessage: 'frame did not answer',
    })
    expect(Object.keys(props[1] ?? {}).sort()).toEqual([
      'errorMessage',
      'errorType',
      'event',
      'stackTrace',
      'type',
    ])
  })

  test('long messages and stacks are cut to what the API accepts', async () => {
    const api = await apiServer()
    const { analytics } = analyticsFor(api.url)
    const error = new ReportableError('INTERNAL_SDK_ERROR', 'x'.repeat(5000))
    error.stack = 'y'.repeat(30_000)
    await analytics.reportError(error, { event: 'e'.repeat(150) })
    const { props } = api.posts()[0]!.body as {
      props: { event: string; errorMessage: string; stackTrace: string }
    }
    expect([props.event.length, props.errorMessage.length, props.stackTrace.length]).toEqual([
      100, 1000, 4000,
    ])
  })

  test('a report of many-byte characters is cut to the 8 KiB body the API accepts', async () => {
    const api = await apiServer()
    const { analytics } = analyticsFor(api.url)
    const error = new ReportableError('INTERNAL_SDK_ERROR', '€'.repeat(1000))
    error.stack = '€'.repeat(30_000)
    await analytics.reportError(error)
    const [post] = api.posts()
    const { props } = post!.body as { props: { errorMessage: string; stackTrace: string } }
    expect(new TextEncoder().encode(JSON.stringify(post!.body)).length).toBeLessThanOrEqual(8192)
    expect(props.errorMessage).toBe('€'.repeat(1000))
    expect(props.stackTrace.length).toBeGreaterThan(1000)
  })

  test('at most 5 reports in any 60 s', async () => {
    const api = await apiServer()
    const { analytics } = analyticsFor(api.url)
    const start = clock
    for (let i = 0; i < 7; i++) await analytics.reportError(new Error(`e${i}`))
    expect(api.posts().length).toBe(5)
    clock = start + 59_999
    await analytics.reportError(new Error('still limited'))
    expect(api.posts().length).toBe(5)
    clock = start + 60_000
    for (let i = 0; i < 6; i++) await analytics.reportError(new Error(`later ${i}`))
    expect(api.posts().length).toBe(10)
    // Tracked events are not limited.
    await analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' })
    expect(api.posts().length).toBe(11)
  })
})

describe('analytics 403 (spec §8)', () => {
  test('a 403 from /e calls onInvalidConfig exactly once and stops sending', async () => {
    const api = await apiServer({ post: () => 403 })
    const onInvalidConfig = vi.fn()
    const { analytics } = analyticsFor(api.url, { onInvalidConfig })
    await analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' })
    await analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' })
    await analytics.reportError(new Error('boom'))
    expect(onInvalidConfig).toHaveBeenCalledTimes(1)
    expect(api.posts().length).toBe(1)
    expect(await analytics.isEnabled()).toBe(false)
  })

  test('a 403 from /getAnalyticsConfig calls onInvalidConfig once', async () => {
    const api = await apiServer({ config: () => [403, { code: 'INVALID_PROJECT_ID' }] })
    const onInvalidConfig = vi.fn()
    const { analytics } = analyticsFor(api.url, { onInvalidConfig })
    await analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' })
    await analytics.reportError(new Error('boom'))
    expect(onInvalidConfig).toHaveBeenCalledTimes(1)
    expect(api.posts()).toEqual([])
  })
})

describe('never throws into the caller', () => {
  test('an unreachable API, a throwing callback and unserialisable properties all resolve', async () => {
    const api = await apiServer()
    const down = api.url
    servers.pop()?.close()
    await new Promise((resolve) => setTimeout(resolve, 20))
    const { analytics } = analyticsFor(down)
    await expect(
      analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' }),
    ).resolves.toBeUndefined()
    await expect(analytics.reportError(new Error('boom'))).resolves.toBeUndefined()

    const forbidden = await apiServer({ post: () => 403 })
    const throwing = analyticsFor(forbidden.url, {
      onInvalidConfig: () => {
        throw new Error('toast failed')
      },
    }).analytics
    await expect(
      throwing.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' }),
    ).resolves.toBeUndefined()

    const ok = await apiServer()
    const { analytics: live } = analyticsFor(ok.url)
    const bigint = { network: 1n } as unknown as { network: string }
    await expect(live.sendEvent('SWITCH_NETWORK', bigint)).resolves.toBeUndefined()
    expect(ok.posts()).toEqual([])
  })

  test('a fetch that throws synchronously is retried for the config next time', async () => {
    const api = await apiServer()
    let calls = 0
    const { analytics } = analyticsFor(api.url, {
      fetch: (input, init) => {
        if (calls++ === 0) throw new TypeError('offline')
        return fetch(input, init)
      },
    })
    await analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' })
    await analytics.sendEvent('SWITCH_NETWORK', { network: 'eip155:1' })
    expect(api.posts().length).toBe(1)
  })
})
