import {
  type Config,
  connect,
  createConfig,
  disconnect,
  getConnection,
  http,
  ProviderNotFoundError,
  reconnect,
  signMessage,
  switchChain,
} from '@wagmi/core'
import { defineChain, SwitchChainError, UserRejectedRequestError, verifyMessage } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { FAKE_ADDRESS, type FakePorthole, rpcError } from './internal/fakePorthole.js'
import { type PortholeParameters, porthole } from './porthole.js'

// The SDK is replaced at the module edge: each createPorthole() makes a fake the test drives in
// the modal's place. wagmi itself (config, actions, state) is the real one.
const sdk = vi.hoisted(() => ({ instances: [] as FakePorthole[] }))
vi.mock('@porthole/sdk', async () => {
  const { createFakePorthole } = await import('./internal/fakePorthole.js')
  return {
    createPorthole: vi.fn((options) => {
      const fake = createFakePorthole(options)
      sdk.instances.push(fake)
      return fake
    }),
  }
})

const devnet = defineChain({
  id: 31337,
  name: 'Porthole Devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
  testnet: true,
})
const devnetB = defineChain({ ...devnet, id: 31338, name: 'Porthole Devnet B' })
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

function setup(parameters: Partial<PortholeParameters> = {}, { handshake = true } = {}) {
  const config: Config = createConfig({
    chains: [devnet, devnetB],
    connectors: [
      porthole({ projectId: 'porthole-demo', modalUrl: 'https://modal.test', ...parameters }),
    ],
    transports: { [devnet.id]: http(), [devnetB.id]: http() },
    multiInjectedProviderDiscovery: false,
    storage: null,
  })
  const fake = sdk.instances.at(-1)
  if (!fake) throw new Error('the connector made no Porthole instance')
  // The modal's first state: no session, on the first network.
  if (handshake) fake.push({ caipNetworkId: 'eip155:31337', chainId: 31337 })
  return { config, connector: config.connectors[0]!, fake }
}

beforeEach(() => {
  sdk.instances.length = 0
  // A browser as far as the connector looks (it only asks whether `window` exists).
  vi.stubGlobal('window', {})
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('porthole()', () => {
  test('describes itself to wagmi and makes one instance with the SDK options and the chains', () => {
    const { connector, fake } = setup({ themeMode: 'light' })
    expect(connector).toMatchObject({
      id: 'porthole',
      name: 'Porthole',
      type: 'porthole',
      rdns: 'dev.porthole',
    })
    expect(porthole.type).toBe('porthole')
    expect(sdk.instances).toHaveLength(1)
    expect(fake.options).toEqual({
      projectId: 'porthole-demo',
      modalUrl: 'https://modal.test',
      themeMode: 'light',
      networks: [
        {
          id: 31337,
          name: 'Porthole Devnet',
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
          testnet: true,
        },
        expect.objectContaining({ id: 31338, name: 'Porthole Devnet B' }),
      ],
    })
  })

  test('networks given to the connector win over the chains', () => {
    const { fake } = setup({ networks: ['eip155:31337'] })
    expect(fake.options.networks).toEqual(['eip155:31337'])
  })

  test('connect opens the modal for an EVM account and wagmi reports the account and chain', async () => {
    const { config, connector, fake } = setup()
    const result = await connect(config, { connector })
    expect(fake.calls).toEqual(['connect:eip155'])
    expect(result).toEqual({ accounts: [FAKE_ADDRESS], chainId: 31337 })
    expect(getConnection(config)).toMatchObject({
      status: 'connected',
      address: FAKE_ADDRESS,
      chainId: 31337,
    })
  })

  test('closing the modal rejects with UserRejectedRequestError; other failures pass unchanged', async () => {
    const { config, connector, fake } = setup()
    fake.onConnect = rpcError(4001, 'Modal closed')
    const closed = await connect(config, { connector }).catch((e: unknown) => e)
    expect(closed).toBeInstanceOf(UserRejectedRequestError)
    expect((closed as UserRejectedRequestError).cause).toMatchObject({ message: 'Modal closed' })

    fake.onConnect = rpcError(4100, 'Origin Not Allowed')
    await expect(connect(config, { connector })).rejects.toMatchObject({
      code: 4100,
      message: 'Origin Not Allowed',
    })
    expect(getConnection(config).status).toBe('disconnected')
  })

  test('connect with a chainId switches the wallet to it', async () => {
    const { config, connector, fake } = setup()
    const result = await connect(config, { connector, chainId: 31338 })
    expect(fake.calls).toEqual(['connect:eip155', 'switchNetwork:eip155:31338'])
    expect(result.chainId).toBe(31338)
  })

  test('switchChain is switchNetwork with the CAIP-2 id, and wagmi follows', async () => {
    const { config, connector, fake } = setup()
    await connect(config, { connector })
    const chain = await switchChain(config, { chainId: 31338 })
    expect(chain.id).toBe(31338)
    expect(fake.calls.at(-1)).toBe('switchNetwork:eip155:31338')
    expect(getConnection(config).chainId).toBe(31338)
  })

  test('a refused switch is UserRejectedRequestError; a failed one SwitchChainError', async () => {
    const { config, connector, fake } = setup()
    await connect(config, { connector })
    fake.onSwitch = rpcError(4001, 'User rejected the request.')
    await expect(switchChain(config, { chainId: 31338 })).rejects.toBeInstanceOf(
      UserRejectedRequestError,
    )
    fake.onSwitch = rpcError(-32603, 'Network not found')
    const failed = await switchChain(config, { chainId: 31338 }).catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(SwitchChainError)
    expect((failed as SwitchChainError).cause).toMatchObject({ message: 'Network not found' })
    // The modal answered but the wallet is still on the old chain.
    fake.onSwitch = 'stay'
    await expect(switchChain(config, { chainId: 31338 })).rejects.toBeInstanceOf(SwitchChainError)
    expect(getConnection(config).chainId).toBe(31337)
  })

  test('a chain outside the config is refused before the modal is asked', async () => {
    const { connector, fake } = setup()
    await expect(connector.switchChain!({ chainId: 1 })).rejects.toBeInstanceOf(SwitchChainError)
    expect(fake.calls).toEqual([])
  })

  test("the wallet's account and chain changes and its disconnect reach wagmi", async () => {
    const { config, connector, fake } = setup()
    await connect(config, { connector })
    fake.emit('accountsChanged', [OTHER])
    expect(getConnection(config).address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    fake.emit('chainChanged', '0x7a6a')
    expect(getConnection(config).chainId).toBe(31338)
    // The modal's disconnect: no accounts, then `disconnect`.
    fake.emit('accountsChanged', [])
    expect(getConnection(config).status).toBe('connected')
    fake.emit('disconnect', rpcError(4900, 'Disconnected'))
    expect(getConnection(config).status).toBe('disconnected')
  })

  test('an account connected in the modal alone (porthole.open()) connects wagmi', async () => {
    const { config, fake } = setup()
    fake.connectAccount(FAKE_ADDRESS, 31338)
    await vi.waitFor(() =>
      expect(getConnection(config)).toMatchObject({
        status: 'connected',
        address: FAKE_ADDRESS,
        chainId: 31338,
      }),
    )
  })

  test("wagmi's disconnect ends the Porthole session, and a later connection is heard again", async () => {
    const { config, connector, fake } = setup()
    await connect(config, { connector })
    await disconnect(config)
    expect(fake.calls).toEqual(['connect:eip155', 'disconnect'])
    expect(getConnection(config).status).toBe('disconnected')
    expect(connector.emitter.listenerCount('connect')).toBe(1)
    fake.connectAccount(FAKE_ADDRESS, 31337)
    await vi.waitFor(() => expect(getConnection(config).status).toBe('connected'))
  })

  test('signMessage goes through the SDK provider', async () => {
    const { config, connector } = setup()
    await connect(config, { connector })
    const signature = await signMessage(config, { message: 'hello from wagmi' })
    expect(
      await verifyMessage({ address: FAKE_ADDRESS, message: 'hello from wagmi', signature }),
    ).toBe(true)
    expect(await connector.getProvider()).toBe(sdk.instances[0]!.getProvider('eip155'))
  })
})

describe('reconnect (a reload)', () => {
  test('waits while the modal restores the saved session, then reports it', async () => {
    const { config, fake } = setup({}, { handshake: false })
    const reconnecting = reconnect(config)
    await new Promise((r) => setTimeout(r, 20))
    // The modal's first state: a saved connection is being restored…
    fake.push({ caipNetworkId: 'eip155:31338', chainId: 31338, status: 'connecting' })
    await new Promise((r) => setTimeout(r, 20))
    // …and comes back.
    fake.connectAccount(FAKE_ADDRESS, 31338)
    const connections = await reconnecting
    expect(connections).toMatchObject([{ accounts: [FAKE_ADDRESS], chainId: 31338 }])
    expect(getConnection(config).status).toBe('connected')
    expect(fake.calls).toEqual([])
  })

  test('is not authorized when the modal has no session, without opening it', async () => {
    const { config, connector, fake } = setup()
    expect(await connector.isAuthorized()).toBe(false)
    expect(await reconnect(config)).toEqual([])
    expect(getConnection(config).status).toBe('disconnected')
    expect(fake.calls).toEqual([])
  })

  test('gives up after restoreTimeoutMs when the modal never answers', async () => {
    const { connector } = setup({ restoreTimeoutMs: 50 }, { handshake: false })
    const started = Date.now()
    expect(await connector.isAuthorized()).toBe(false)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  test('a failed instance (the modal refused the origin) is not authorized', async () => {
    const { connector, fake } = setup({}, { handshake: false })
    const authorized = connector.isAuthorized()
    fake.push({ error: { code: 4100, message: 'Origin Not Allowed' } })
    expect(await authorized).toBe(false)
  })
})

describe('on a server (no window)', () => {
  test('makes no instance; provider calls say there is no provider', async () => {
    vi.unstubAllGlobals()
    expect(typeof window).toBe('undefined')
    const config = createConfig({
      chains: [devnet],
      connectors: [porthole({ projectId: 'porthole-demo' })],
      transports: { [devnet.id]: http() },
      ssr: true,
    })
    const [connector] = config.connectors
    expect(sdk.instances).toHaveLength(0)
    await expect(connector!.getProvider()).rejects.toBeInstanceOf(ProviderNotFoundError)
    expect(await connector!.isAuthorized()).toBe(false)
    expect(sdk.instances).toHaveLength(0)
  })
})
