import { beforeEach, expect, test, vi } from 'vitest'

// The wallet frame and the shared end of a login are replaced at their module edges: what the
// Farcaster flow asks of them, in what order, is under test.
const requests = vi.hoisted(() => [] as string[])
const answers = vi.hoisted(() => ({
  getFarcasterUri: async (): Promise<unknown> => ({ url: 'farcaster://connect?channelToken=c1' }),
  connectFarcaster: async (): Promise<unknown> => ({ action: 'VERIFY_DEVICE', method: 'passkey' }),
}))
const completed = vi.hoisted(() => [] as unknown[])
const signIn = vi.hoisted(() => ({ refusal: null as Error | null }))
vi.mock('../wallet/frame.js', () => ({
  walletRequest: (
    method: keyof typeof answers,
    _params: unknown,
    options: { signal?: AbortSignal },
  ) => {
    requests.push(method)
    if (options.signal?.aborted) return Promise.reject(new Error('Request was aborted'))
    return answers[method]()
  },
}))
vi.mock('./auth.js', () => ({
  assertCanSignIn: () => {
    if (signIn.refusal) throw signIn.refusal
  },
  completeLogin: async (answer: unknown) => {
    completed.push(answer)
  },
}))

const { farcasterLogin } = await import('./farcaster.js')

beforeEach(() => {
  requests.length = 0
  completed.length = 0
  signIn.refusal = null
})

test("multi-wallet off with every namespace held: the spec's error as it is, and the frame is never asked", async () => {
  signIn.refusal = Object.assign(new Error('Multi-wallet support is not enabled. …'), {
    code: 4200,
  })
  await expect(
    farcasterLogin({ signal: new AbortController().signal, onUrl: () => {} }),
  ).rejects.toMatchObject({ code: 4200, message: 'Multi-wallet support is not enabled. …' })
  expect(requests).toEqual([])
})

test('shows the link first, then ends as a social login does with the frame’s answer', async () => {
  const urls: string[] = []
  await farcasterLogin({ signal: new AbortController().signal, onUrl: (url) => urls.push(url) })
  expect(urls).toEqual(['farcaster://connect?channelToken=c1'])
  expect(requests).toEqual(['getFarcasterUri', 'connectFarcaster'])
  expect(completed).toEqual([{ action: 'VERIFY_DEVICE', method: 'passkey' }])
})

test('a failure is the spec’s “Failed to connect to farcaster”', async () => {
  const original = answers.connectFarcaster
  answers.connectFarcaster = async () => {
    throw new Error('INVALID_FARCASTER_SIGN_IN')
  }
  try {
    await expect(
      farcasterLogin({ signal: new AbortController().signal, onUrl: () => {} }),
    ).rejects.toThrow('Failed to connect to farcaster')
    expect(completed).toEqual([])
  } finally {
    answers.connectFarcaster = original
  }
})

test('leaving the view aborts: a user rejection (4001), nothing connects', async () => {
  const controller = new AbortController()
  const urls: string[] = []
  const login = farcasterLogin({
    signal: controller.signal,
    onUrl: (url) => {
      urls.push(url)
      controller.abort()
    },
  })
  await expect(login).rejects.toMatchObject({ code: 4001 })
  expect(completed).toEqual([])
})
