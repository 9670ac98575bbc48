import { afterEach, beforeEach, expect, test, vi } from 'vitest'

// The API is replaced at its module edge; the catalogue's loading and the image wait run for real.
const edge = vi.hoisted(() => ({ getWallets: vi.fn() }))
vi.mock('../api/client.js', async (original) => ({
  ...(await original<typeof import('../api/client.js')>()),
  getWallets: edge.getWallets,
}))

const { IMAGE_PRELOAD_WAIT_MS, loadInitial, preloadImages } = await import('./catalogue.js')
const { store, initialState } = await import('../store/store.js')

/** Image stand-ins: each loads when the test says so (or fails). */
const images = new Map<string, { loaded: () => void; failed: () => void }>()
class FakeImage {
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  set src(value: string) {
    images.set(value, { loaded: () => this.onload?.(), failed: () => this.onerror?.() })
  }
}

beforeEach(() => {
  images.clear()
  vi.stubGlobal('Image', FakeImage)
  vi.useFakeTimers()
  store.setState(initialState())
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const settled = (promise: Promise<unknown>) => {
  let done = false
  void promise.then(() => {
    done = true
  })
  return () => done
}

test('the image wait ends when every image has loaded or failed; non-web URLs are not fetched', async () => {
  const done = settled(
    preloadImages([
      'https://img.test/a.png',
      'https://img.test/b.png',
      null,
      'javascript:alert(1)',
    ]),
  )
  expect([...images.keys()]).toEqual(['https://img.test/a.png', 'https://img.test/b.png'])
  images.get('https://img.test/a.png')?.loaded()
  await vi.advanceTimersByTimeAsync(0)
  expect(done()).toBe(false)
  images.get('https://img.test/b.png')?.failed()
  await vi.advanceTimersByTimeAsync(0)
  expect(done()).toBe(true)
})

test('an image that never arrives holds the list back 2 s at most (spec §9)', async () => {
  const done = settled(preloadImages(['https://img.test/slow.png']))
  await vi.advanceTimersByTimeAsync(IMAGE_PRELOAD_WAIT_MS - 1)
  expect(done()).toBe(false)
  await vi.advanceTimersByTimeAsync(1)
  expect(done()).toBe(true)
  expect(IMAGE_PRELOAD_WAIT_MS).toBe(2000)
})

test("Connect's first wallets are stored once their images have loaded, so rows and images come together", async () => {
  const wallet = (id: string) => ({
    id,
    name: id,
    image_url: `https://img.test/${id}.png`,
    rdns: null,
    homepage: null,
    order: null,
  })
  edge.getWallets.mockResolvedValue({ data: [wallet('w1'), wallet('w2')], count: 2 })
  const loading = loadInitial()
  await vi.advanceTimersByTimeAsync(0)
  expect(store.getState().catalogue.status).toBe('loading')
  images.get('https://img.test/w1.png')?.loaded()
  images.get('https://img.test/w2.png')?.loaded()
  await loading
  expect(store.getState().catalogue).toMatchObject({
    status: 'ready',
    wallets: [{ id: 'w1' }, { id: 'w2' }],
  })
})
