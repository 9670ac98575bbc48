import {
  Channel,
  fromContract,
  type HeadlessWallet,
  type HostToModal,
  HostToModalSchema,
  type ModalToHost,
  modalToHostValidator,
  UserRejectedRequestError,
} from '@porthole/protocol'
import { afterEach, describe, expect, test } from 'vitest'
import { createHeadless } from './headless.js'

const WALLETS: HeadlessWallet[] = [
  {
    id: 'dev.porthole.wallet',
    name: 'Porthole Dev Wallet',
    icon: 'data:image/svg+xml,<svg/>',
    type: 'injected',
    section: 'installed',
    installed: true,
    namespace: 'eip155',
  },
  {
    id: 'walletConnect',
    name: 'WalletConnect',
    icon: '',
    type: 'walletConnect',
    section: 'walletConnect',
    installed: false,
  },
]
const RESULT = {
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  caipAddress: 'eip155:31337:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  chainId: 31337,
  caipNetworkId: 'eip155:31337',
}

type Answers = {
  wallets?: () => unknown
  connectWallet?: (params: { wallet: string }) => unknown
  connectEmail?: (params: { email: string }) => unknown
}

let closers: (() => void)[] = []
afterEach(() => {
  for (const close of closers) close()
  closers = []
})

/**
 * Both ends of a real port: the SDK side checks the modal's messages with the zod-free guards,
 * the modal side checks params with the contract's zod schemas, as in the browser.
 */
function connect(answers: Answers) {
  const { port1, port2 } = new MessageChannel()
  const seen: { method: string; params: unknown }[] = []
  const record =
    <P>(method: string, answer: ((params: P) => unknown) | undefined) =>
    (params: P) => {
      seen.push({ method, params })
      if (!answer) throw new Error(`unexpected ${method}`)
      return answer(params) as never
    }
  const modal = Channel.create<ModalToHost, HostToModal>({
    port: port2,
    validator: fromContract(HostToModalSchema),
    handlers: {
      wallets: record('wallets', answers.wallets),
      connectWallet: record('connectWallet', answers.connectWallet),
      connectEmail: record('connectEmail', answers.connectEmail),
    },
  })
  const host = Channel.create<HostToModal, ModalToHost>({
    port: port1,
    validator: modalToHostValidator,
  })
  closers.push(
    () => host.close(),
    () => modal.close(),
  )
  return { headless: createHeadless(async () => host), seen }
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }),
  )

describe('wallets()', () => {
  test("resolves with the modal's list", async () => {
    const { headless, seen } = connect({ wallets: () => WALLETS })
    expect(await headless.wallets()).toEqual(WALLETS)
    expect(seen).toEqual([{ method: 'wallets', params: {} }])
  })

  test('refuses a list it cannot trust (an icon with a script scheme, a missing field)', async () => {
    for (const bad of [
      [{ ...WALLETS[0], icon: 'javascript:alert(1)' }],
      [{ ...WALLETS[0], installed: undefined }],
      { wallets: WALLETS },
    ]) {
      const { headless } = connect({ wallets: () => bad })
      expect(await failure(headless.wallets())).toEqual({
        code: -32603,
        message: 'Invalid wallet list',
      })
    }
  })
})

describe('connect({ wallet }) and connect({ email })', () => {
  test('ask the modal by wallet id or e-mail and resolve with the connection', async () => {
    const { headless, seen } = connect({
      connectWallet: () => RESULT,
      connectEmail: () => RESULT,
    })
    expect(await headless.connect({ wallet: 'walletConnect' })).toEqual(RESULT)
    expect(await headless.connect({ email: 'ada@example.com' })).toEqual(RESULT)
    expect(seen).toEqual([
      { method: 'connectWallet', params: { wallet: 'walletConnect' } },
      { method: 'connectEmail', params: { email: 'ada@example.com' } },
    ])
  })

  test("the modal's refusal arrives typed: 'Connection rejected' (4001)", async () => {
    const { headless } = connect({
      connectWallet: () => {
        throw new UserRejectedRequestError('Connection rejected')
      },
    })
    const error = await headless.connect({ wallet: 'dev.porthole.wallet' }).catch((e) => e)
    expect(error).toBeInstanceOf(UserRejectedRequestError)
    expect(error).toMatchObject({ code: 4001, message: 'Connection rejected' })
  })

  test('an answer that is not a connection is refused', async () => {
    const { headless } = connect({ connectWallet: () => ({ ...RESULT, caipNetworkId: 'x' }) })
    expect(await failure(headless.connect({ wallet: 'a' }))).toEqual({
      code: -32603,
      message: 'Invalid connect result',
    })
  })

  test('neither, both, or an empty value is refused before anything is sent', async () => {
    const { headless, seen } = connect({ connectWallet: () => RESULT, connectEmail: () => RESULT })
    for (const options of [{}, { wallet: 'a', email: 'b@c.de' }, { wallet: '' }, { email: 42 }])
      expect(await failure(headless.connect(options))).toMatchObject({ code: -32602 })
    expect(seen).toEqual([])
  })

  test("the modal checks the params with the contract's schema", async () => {
    const { headless, seen } = connect({ connectEmail: () => RESULT })
    expect(await failure(headless.connect({ email: `${'a'.repeat(250)}@x.io` }))).toEqual({
      code: -32602,
      message: 'Invalid params for connectEmail',
    })
    expect(seen).toEqual([])
  })
})
