import { DEMO_PROJECT_ID } from '@porthole/shared'
import { describe, expect, test } from 'vitest'
import { createTestDatabase } from '../test/databases.js'
import { startApi } from './server.js'

describe('startApi', () => {
  test('serves on loopback with the catalogue and the demo project seeded, then closes', async () => {
    const target = await createTestDatabase('sqlite')
    const api = await startApi({ port: 0, databaseUrl: target.url, rateLimit: false })
    try {
      expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(await (await fetch(`${api.url}/health`)).json()).toEqual({ ok: true })
      const origins = await fetch(`${api.url}/projects/v1/origins?projectId=${DEMO_PROJECT_ID}`)
      expect(await origins.json()).toMatchObject({ allowedOrigins: ['http://localhost:4000'] })
      const wallets = await (
        await fetch(`${api.url}/getWallets?projectId=${DEMO_PROJECT_ID}&entries=1`)
      ).json()
      // image_url names the address actually bound, and it resolves
      expect(wallets.data[0].image_url).toBe(
        `${api.url}/getWalletImage/metamask?projectId=${DEMO_PROJECT_ID}`,
      )
      const image = await fetch(wallets.data[0].image_url)
      expect(image.headers.get('content-type')).toBe('image/svg+xml')
    } finally {
      await api.close()
      await target.cleanup()
    }
    await expect(fetch(`${api.url}/health`)).rejects.toThrow()
  })

  test('a second start on the same database keeps one catalogue and one demo project', async () => {
    const target = await createTestDatabase('sqlite')
    for (let i = 0; i < 2; i++) {
      const api = await startApi({ port: 0, databaseUrl: target.url, seedDemo: true })
      const [row] = await api.db.query<{ n: number }>(
        'SELECT CAST(COUNT(*) AS INTEGER) AS n FROM projects',
      )
      expect(row?.n).toBe(1)
      await api.close()
    }
    await target.cleanup()
  })
})
