import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { createSiteCheck, SiteCheckUnavailableError } from './sites.js'

const servers: { close(): void }[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** An API stand-in answering `/projects/v1/origins` as the API does; counts the reads. */
async function api(projects: Record<string, string[]>) {
  const reads: string[] = []
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x')
    const id = url.searchParams.get('projectId') ?? ''
    reads.push(`${url.pathname}?${id}`)
    response.setHeader('content-type', 'application/json')
    const origins = projects[id]
    if (!origins) {
      response.statusCode = 403
      response.end(JSON.stringify({ code: 'INVALID_PROJECT_ID', message: 'Invalid Project ID' }))
      return
    }
    response.end(JSON.stringify({ allowedOrigins: origins }))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  servers.push(server)
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, reads }
}

test('a site is allowed when the project’s allowlist (patterns too) names it; an unknown project allows nothing', async () => {
  const { url } = await api({ shop: ['https://shop.example', 'https://*.shop.example'] })
  const allowed = createSiteCheck({ apiUrl: url })
  expect(await allowed('shop', 'https://shop.example')).toBe(true)
  expect(await allowed('shop', 'https://pay.shop.example')).toBe(true)
  expect(await allowed('shop', 'https://evil.example')).toBe(false)
  expect(await allowed('shop', 'https://shop.example.evil.example')).toBe(false)
  expect(await allowed('nobody', 'https://shop.example')).toBe(false)
})

test('one read per project within the cache time, then again', async () => {
  const { url, reads } = await api({ shop: ['https://shop.example'] })
  let time = 0
  const allowed = createSiteCheck({ apiUrl: url, ttlMs: 10_000, now: () => time })
  for (let i = 0; i < 5; i++) await allowed('shop', 'https://shop.example')
  expect(reads).toEqual(['/projects/v1/origins?shop'])
  time = 10_000
  await allowed('shop', 'https://shop.example')
  expect(reads).toHaveLength(2)
})

test('an API that does not answer makes the check reject (nothing is mailed), and is asked again next time', async () => {
  const { url } = await api({})
  const down = createSiteCheck({ apiUrl: 'http://127.0.0.1:9' })
  await expect(down('shop', 'https://shop.example')).rejects.toBeInstanceOf(
    SiteCheckUnavailableError,
  )
  const { url: later, reads } = await api({ shop: ['https://shop.example'] })
  expect(url).not.toBe(later)
  const check = createSiteCheck({ apiUrl: later })
  expect(await check('shop', 'https://shop.example')).toBe(true)
  expect(reads).toHaveLength(1)
})
