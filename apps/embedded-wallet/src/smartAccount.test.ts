import type { EmbeddedUser } from '@porthole/protocol'
import { simpleAccountFactoryAbi } from '@porthole/shared'
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  http,
  isErc6492Signature,
  parseEther,
} from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import type { AaDevnet } from './testing/aaDevnet.js'

// The chain is real (anvil with the 4337 contracts); the API's proxy in front of it is the test
// kit's bundler and paymaster service; the Worker is a key held here; the storage is in memory.
const edge = vi.hoisted(() => ({
  devnet: undefined as AaDevnet | undefined,
  owner: undefined as PrivateKeyAccount | undefined,
  chainId: 31337,
  /** Chain reads under way, the most at once, and their methods in order. */
  inFlight: 0,
  mostAtOnce: 0,
  reads: [] as string[],
}))
vi.mock('./api.js', () => ({
  rpc: async (chain: string, method: string, params: unknown[]) => {
    edge.reads.push(method)
    edge.mostAtOnce = Math.max(edge.mostAtOnce, ++edge.inFlight)
    try {
      return await (edge.devnet as AaDevnet).rpc(chain, method, params)
    } finally {
      edge.inFlight--
    }
  },
  apiOrigin: () => 'http://127.0.0.1:4300',
}))
vi.mock('./session.js', () => ({
  address: () => edge.owner?.address ?? null,
  chainId: () => edge.chainId,
}))
vi.mock('./signer.js', () => ({
  signer: {
    signMessage: (message: string | { raw: `0x${string}` }) =>
      (edge.owner as PrivateKeyAccount).signMessage({ message }),
    signTypedData: (typed: Parameters<PrivateKeyAccount['signTypedData']>[0]) =>
      (edge.owner as PrivateKeyAccount).signTypedData(typed),
  },
}))

const SmartAccount = await import('./smartAccount.js')
const { startAaDevnet } = await import('./testing/aaDevnet.js')

let devnet: AaDevnet
const storage = new Map<string, string>()
const client = () => createPublicClient({ transport: http(devnet.rpcUrl) })

function signIn(): PrivateKeyAccount {
  edge.owner = privateKeyToAccount(generatePrivateKey())
  return edge.owner
}

const userOf = (owner: PrivateKeyAccount): EmbeddedUser => ({
  email: 'ada@example.com',
  address: owner.address,
  chainId: edge.chainId,
  accounts: [{ address: owner.address, type: 'eoa' }],
  userName: null,
  socialProvider: null,
  preferredAccountType: 'eoa',
  smartAccountDeployed: false,
})

const transfer = (to: Address, amount: bigint) => ({
  to: devnet.token,
  value: 0n,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
})

beforeAll(async () => {
  devnet = await startAaDevnet()
  edge.devnet = devnet
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => storage.set(key, String(value)),
  })
}, 60_000)
afterAll(async () => {
  vi.unstubAllGlobals()
  await devnet?.stop()
})
beforeEach(() => {
  edge.chainId = 31337
  devnet.sponsorship.on = true
  SmartAccount.configureSmartAccounts({ networks: [31337], factory: devnet.factory })
})

describe('the account a user has', () => {
  test('a new user is a smart account on enabled networks: the factory’s counterfactual address, not deployed, both addresses listed', async () => {
    const owner = signIn()
    const expected = await client().readContract({
      address: devnet.factory,
      abi: simpleAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner.address, 0n],
    })
    const user = await SmartAccount.describeUser(userOf(owner))
    expect(user).toMatchObject({
      address: expected,
      preferredAccountType: 'smartAccount',
      smartAccountDeployed: false,
      accounts: [
        { address: owner.address, type: 'eoa' },
        { address: expected, type: 'smartAccount' },
      ],
    })
    expect(SmartAccount.enabledNetworks()).toEqual([31337])
    expect(await SmartAccount.activeAccount()).toEqual({ type: 'smartAccount', address: expected })
    // Another network without smart accounts: the EOA only.
    edge.chainId = 1
    expect(SmartAccount.activeType()).toBe('eoa')
    expect(await SmartAccount.describeUser(userOf(owner))).toMatchObject({
      address: owner.address,
      accounts: [{ address: owner.address, type: 'eoa' }],
      preferredAccountType: 'eoa',
    })
  })

  test('an account this device saw before is described in one round trip; a remembered address the factory does not give is not used', async () => {
    const owner = signIn()
    const read = async () => {
      edge.reads = []
      edge.mostAtOnce = 0
      // A new page: nothing in memory, this origin's storage kept.
      SmartAccount.reset()
      return SmartAccount.describeAccounts(owner.address)
    }
    const first = await read()
    expect(edge.reads).toEqual(['eth_call', 'eth_getCode'])
    expect(edge.mostAtOnce).toBe(1)
    expect(first).toMatchObject({
      preferredAccountType: 'smartAccount',
      smartAccountDeployed: false,
    })
    // The next load reads the factory and the deployment at once, and says the same.
    expect(await read()).toEqual(first)
    expect(edge.reads.sort()).toEqual(['eth_call', 'eth_getCode'])
    expect(edge.mostAtOnce).toBe(2)
    // A remembered address that is not the factory's (here a contract with code): the factory's
    // address is named, and its own deployment read.
    const key = [...storage.keys()].find((k) => k.includes(owner.address.toLowerCase()))
    expect(key).toContain('smartAccountAddress')
    storage.set(key as string, devnet.token)
    expect(await read()).toEqual(first)
    expect(edge.reads.filter((m) => m === 'eth_getCode')).toHaveLength(2)
  })

  test('reads started ahead by a sign-in answer the next description once, while fresh; a deployment since is not hidden for long', async () => {
    const owner = signIn()
    SmartAccount.reset()
    edge.reads = []
    SmartAccount.readAccountsAhead(owner.address)
    await vi.waitFor(() => expect(edge.reads).toEqual(['eth_call', 'eth_getCode']))
    await new Promise((resolve) => setTimeout(resolve, 20))
    const ahead = await SmartAccount.describeAccounts(owner.address)
    // Nothing read again: the factory's address is cached, the deployment read ahead is used.
    expect(edge.reads).toEqual(['eth_call', 'eth_getCode'])
    expect(ahead).toMatchObject({ smartAccountDeployed: false })
    // Used once: the next description reads the deployment again.
    await SmartAccount.describeAccounts(owner.address)
    expect(edge.reads).toEqual(['eth_call', 'eth_getCode', 'eth_getCode'])
    // A read ahead older than 3 s is not used.
    const now = Date.now()
    SmartAccount.readAccountsAhead(owner.address)
    await vi.waitFor(() => expect(edge.reads).toHaveLength(4))
    vi.useFakeTimers({ toFake: ['Date'], now: now + 3_100 })
    try {
      await SmartAccount.describeAccounts(owner.address)
    } finally {
      vi.useRealTimers()
    }
    expect(edge.reads).toHaveLength(5)
    // A network without smart accounts: nothing is read ahead.
    edge.chainId = 1
    SmartAccount.readAccountsAhead(owner.address)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(edge.reads).toHaveLength(5)
  })

  test("a restore names the accounts from this device's memory with one chain read (the deployment), as the factory would", async () => {
    const { describeRemembered } = await import('./accountHint.js')
    const settings = { networks: [31337], factory: devnet.factory }
    const owner = signIn()
    edge.reads = []
    // Nothing remembered of a new owner: the account's code must ask the factory.
    expect(await describeRemembered(owner.address, 31337, settings)).toBeUndefined()
    expect(edge.reads).toEqual([])
    const full = await SmartAccount.describeAccounts(owner.address)
    edge.reads = []
    expect(await describeRemembered(owner.address, 31337, settings)).toEqual(full)
    expect(edge.reads).toEqual(['eth_getCode'])
    // The owner's choice of the EOA is remembered too.
    SmartAccount.setPreferredType('eoa')
    expect(await describeRemembered(owner.address, 31337, settings)).toEqual(
      await SmartAccount.describeAccounts(owner.address),
    )
    // A network without smart accounts: the EOA alone, nothing read.
    edge.reads = []
    expect(await describeRemembered(owner.address, 1, settings)).toEqual({
      address: owner.address,
      accounts: [{ address: owner.address, type: 'eoa' }],
      preferredAccountType: 'eoa',
      smartAccountDeployed: false,
    })
    expect(edge.reads).toEqual([])
  })

  test('the preferred type is remembered per user; the active account follows it', async () => {
    const ada = signIn()
    SmartAccount.setPreferredType('eoa')
    expect(await SmartAccount.activeAccount()).toEqual({ type: 'eoa', address: ada.address })
    const user = await SmartAccount.describeUser(userOf(ada))
    expect(user.address).toBe(ada.address)
    expect(user.preferredAccountType).toBe('eoa')
    expect(user.accounts).toHaveLength(2)
    const bob = signIn()
    expect(SmartAccount.preferredType()).toBe('smartAccount')
    edge.owner = ada
    expect(SmartAccount.preferredType()).toBe('eoa')
    SmartAccount.setPreferredType('smartAccount')
    expect((await SmartAccount.activeAccount()).type).toBe('smartAccount')
    expect(bob.address).not.toBe(ada.address)
  })

  test('a request may name the EOA or the smart account; any other address is nobody', async () => {
    const owner = signIn()
    const smart = (await SmartAccount.activeAccount()).address
    expect(await SmartAccount.accountNamed(owner.address.toLowerCase())).toEqual({
      type: 'eoa',
      address: owner.address,
    })
    expect(await SmartAccount.accountNamed(smart)).toEqual({ type: 'smartAccount', address: smart })
    expect(await SmartAccount.accountNamed(undefined)).toEqual({
      type: 'smartAccount',
      address: smart,
    })
    expect(await SmartAccount.accountNamed(privateKeyToAccount(generatePrivateKey()).address)).toBe(
      null,
    )
  })

  test('a network whose factory is missing falls back to the EOA (and says so consistently)', async () => {
    const owner = signIn()
    SmartAccount.configureSmartAccounts({
      networks: [31337],
      factory: privateKeyToAccount(generatePrivateKey()).address,
    })
    const user = await SmartAccount.describeUser(userOf(owner))
    expect(user.accounts).toEqual([{ address: owner.address, type: 'eoa' }])
    expect(SmartAccount.isEnabled(31337)).toBe(false)
    expect(await SmartAccount.activeAccount()).toEqual({ type: 'eoa', address: owner.address })
  })
})

describe('user operations', () => {
  test('sponsored: the first operation deploys the account and runs the call; its ETH stays 0', async () => {
    signIn()
    const changed = vi.fn()
    const stop = SmartAccount.onChange(changed)
    const { address } = await SmartAccount.activeAccount()
    await devnet.mint(address, 50_000_000n)
    const friend = privateKeyToAccount(generatePrivateKey()).address
    const prepared = await SmartAccount.prepareCalls(31337, [transfer(friend, 2_000_000n)])
    expect(prepared.gas).toEqual({
      sponsored: true,
      sponsor: 'Porthole Devnet',
      paymaster: devnet.paymaster,
    })
    expect(prepared.deployed).toBe(false)
    expect(prepared.userOperation.factory).toBe(devnet.factory)
    const hash = await SmartAccount.submit(prepared)
    const receipt = await SmartAccount.waitForReceipt(31337, hash, { intervalMs: 20 })
    expect(receipt.success).toBe(true)
    expect(await devnet.tokenBalance(friend)).toBe(2_000_000n)
    expect(await client().getBalance({ address })).toBe(0n)
    expect(await SmartAccount.isDeployed(31337)).toBe(true)
    expect(changed).toHaveBeenCalled()
    stop()
    // The next one has no init code.
    const again = await SmartAccount.prepareCalls(31337, [transfer(friend, 1n)])
    expect(again.deployed).toBe(true)
    expect(again.userOperation.factory).toBeUndefined()
  })

  test('sponsorship refused: an account without ETH gets the clear error; with ETH it pays its own gas', async () => {
    signIn()
    devnet.sponsorship.on = false
    const { address } = await SmartAccount.activeAccount()
    const friend = privateKeyToAccount(generatePrivateKey()).address
    const call = { to: friend, value: 1n, data: undefined }
    await expect(SmartAccount.prepareCalls(31337, [call])).rejects.toThrow(
      'Gas sponsorship is unavailable and the account has no ETH for gas',
    )
    await devnet.setBalance(address, parseEther('1'))
    await expect(
      SmartAccount.prepareCalls(31337, [call], { sponsorRequired: true }),
    ).rejects.toThrow('Gas sponsorship is unavailable')
    const prepared = await SmartAccount.prepareCalls(31337, [call])
    expect(prepared.gas.sponsored).toBe(false)
    expect(prepared.userOperation.paymaster).toBeUndefined()
    const maxFee = prepared.gas.sponsored ? 0n : prepared.gas.maxFee
    expect(maxFee).toBeGreaterThan(0n)
    const receipt = await SmartAccount.waitForReceipt(31337, await SmartAccount.submit(prepared), {
      intervalMs: 20,
    })
    expect(receipt.success).toBe(true)
    const left = await client().getBalance({ address })
    expect(left).toBeLessThan(parseEther('1') - 1n)
    expect(left).toBeGreaterThanOrEqual(parseEther('1') - 1n - maxFee)
    expect(await client().getBalance({ address: friend })).toBe(1n)
  })

  test('the paymaster gets the app’s ERC-7677 context', async () => {
    signIn()
    devnet.contexts.length = 0
    await SmartAccount.prepareCalls(31337, [{ to: devnet.token, value: 0n, data: undefined }], {
      paymasterContext: { policy: 'demo' },
    })
    expect(devnet.contexts).toEqual([{ policy: 'demo' }])
  })

  test('an operation that never lands ends the wait with a clear error', async () => {
    signIn()
    const unknown = `0x${'ab'.repeat(32)}` as const
    await expect(
      SmartAccount.waitForReceipt(31337, unknown, { timeoutMs: 60, intervalMs: 20 }),
    ).rejects.toThrow('The user operation was not included within 0 s')
  })
})

describe('signatures of the smart account verify with viem', () => {
  test('ERC-6492 before deployment, ERC-1271 after; the owner’s plain signature is not the account’s', async () => {
    const owner = signIn()
    const { address } = await SmartAccount.activeAccount()
    const message = 'Sign in to the demo'
    const before = await SmartAccount.signMessage(31337, message)
    expect(isErc6492Signature(before)).toBe(true)
    expect(await client().verifyMessage({ address, message, signature: before })).toBe(true)
    const typed = {
      domain: { name: 'Demo', version: '1', chainId: 31337 },
      types: { Greeting: [{ name: 'text', type: 'string' }] },
      primaryType: 'Greeting',
      message: { text: 'hi' },
    } as const
    const typedBefore = await SmartAccount.signTypedData(31337, typed)
    expect(await client().verifyTypedData({ ...typed, address, signature: typedBefore })).toBe(true)
    // Deploy it (sponsored, a call that does nothing).
    const prepared = await SmartAccount.prepareCalls(31337, [
      { to: owner.address, value: 0n, data: undefined },
    ])
    await SmartAccount.waitForReceipt(31337, await SmartAccount.submit(prepared), {
      intervalMs: 20,
    })
    const after = await SmartAccount.signMessage(31337, message)
    expect(isErc6492Signature(after)).toBe(false)
    expect(await client().verifyMessage({ address, message, signature: after })).toBe(true)
    expect(
      await client().verifyTypedData({
        ...typed,
        address,
        signature: await SmartAccount.signTypedData(31337, typed),
      }),
    ).toBe(true)
    const plain = await owner.signMessage({ message })
    expect(await client().verifyMessage({ address, message, signature: plain })).toBe(false)
  })
})
