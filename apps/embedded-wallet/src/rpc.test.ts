import { walk } from '@porthole/protocol'
import { formatSiwxMessage, simpleAccountAbi } from '@porthole/shared'
import { portholeSessionsAbi, SESSION_KIND } from '@porthole/shared/simpleAccount'
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  isErc6492Signature,
  keccak256,
  maxUint256,
  parseEther,
  toHex,
} from 'viem'
import { entryPoint07Address, formatUserOperationRequest } from 'viem/account-abstraction'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import type { ApprovalContent } from './describe.js'
import type { AaDevnet } from './testing/aaDevnet.js'
import { SESSION_CAPABILITY } from './walletCalls.js'

// The chain is real (anvil with the 4337 contracts); the API's proxy in front of it is the test
// kit's bundler and paymaster service; the Worker is a key held here; the card answers as the
// test says and records what it showed.
const edge = vi.hoisted(() => ({
  devnet: undefined as AaDevnet | undefined,
  owner: undefined as PrivateKeyAccount | undefined,
  chainId: 31337,
  cards: [] as ApprovalContent[],
  approve: true,
  /** The API's `/v1` calls (session records). */
  v1: [] as { method: string; path: string; body: unknown }[],
  /** The sessions the API lists, by account path, as it registered them. */
  listed: new Map<string, { pci: string; project: { origin: string | null } }[]>(),
  /** Set: the API refuses every session write with this status. */
  v1Refuses: undefined as number | undefined,
}))
vi.mock('./api.js', () => ({
  rpc: (chain: string, method: string, params: unknown[]) =>
    (edge.devnet as AaDevnet).rpc(chain, method, params),
  apiOrigin: () => 'http://127.0.0.1:4300',
  v1: async (method: string, path: string, body: unknown) => {
    edge.v1.push({ method, path, body })
    if (method === 'GET') return { pcis: edge.listed.get(path) ?? [] }
    if (edge.v1Refuses)
      throw Object.assign(new Error('Injected outage'), { status: edge.v1Refuses })
    if (!path.endsWith('/revoke')) {
      const { pci, origin } = body as { pci: string; origin?: string }
      edge.listed.set(path, [
        { pci, project: { origin: origin ?? null } },
        ...(edge.listed.get(path) ?? []).filter((row) => row.pci !== pci),
      ])
    }
    return {}
  },
}))
vi.mock('./session.js', () => ({
  address: () => edge.owner?.address ?? null,
  chainId: () => edge.chainId,
}))
vi.mock('./signer.js', () => ({
  signer: {
    signMessage: (message: string | { raw: Hex }) =>
      (edge.owner as PrivateKeyAccount).signMessage({ message }),
    signTypedData: (typed: Parameters<PrivateKeyAccount['signTypedData']>[0]) =>
      (edge.owner as PrivateKeyAccount).signTypedData(typed),
  },
}))
vi.mock('./approval.js', () => ({
  // The queue limit has its own test (e2e walletCardAttacks.spec.ts): never full here.
  assertApprovalRoom: () => {},
  requestApproval: async (content: ApprovalContent) => {
    edge.cards.push(content)
    return edge.approve
  },
}))

const Rpc = await import('./rpc.js')
const SmartAccount = await import('./smartAccount.js')
const { startAaDevnet } = await import('./testing/aaDevnet.js')

let devnet: AaDevnet
const storage = new Map<string, string>()
const client = () => createPublicClient({ transport: http(devnet.rpcUrl) })
let nextId = 0
const shown = vi.fn()
const answered = vi.fn()

/** Runs a request as the modal's channel would. */
const request = (method: string, params: unknown) =>
  Rpc.handleRpc({ id: String(++nextId), method, params }, shown, undefined, answered)

/** The code of a refusal (5792 codes, EIP-1193 codes). */
async function codeOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise
  } catch (error) {
    return (
      walk(error, (e) => typeof (e as { code?: unknown }).code === 'number') as {
        code?: number
      }
    )?.code
  }
  throw new Error('the request succeeded')
}

const friend = () => privateKeyToAccount(generatePrivateKey()).address
const erc20 = (functionName: 'transfer' | 'approve', args: [Address, bigint]) =>
  encodeFunctionData({ abi: erc20Abi, functionName, args })
const field = (card: ApprovalContent | undefined, label: string) =>
  card?.fields.find((f) => f.label === label)?.value

/** Signs in a new user whose smart account holds `tokens` pUSD base units. */
async function newUser(tokens = 0n): Promise<{ owner: PrivateKeyAccount; smart: Address }> {
  edge.owner = privateKeyToAccount(generatePrivateKey())
  const { address } = await SmartAccount.activeAccount()
  if (tokens) await devnet.mint(address, tokens)
  return { owner: edge.owner, smart: address }
}

beforeAll(async () => {
  devnet = await startAaDevnet()
  edge.devnet = devnet
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => storage.set(key, String(value)),
  })
  Rpc.setNetworks([{ chainId: 31337, name: 'Porthole Devnet', symbol: 'ETH', decimals: 18 }])
  Rpc.setDappOrigin('http://localhost:4000')
}, 60_000)
afterAll(async () => {
  vi.unstubAllGlobals()
  await devnet?.stop()
})
beforeEach(() => {
  edge.chainId = 31337
  edge.cards.length = 0
  edge.approve = true
  edge.v1Refuses = undefined
  Rpc.setDappOrigin('http://localhost:4000')
  devnet.sponsorship.on = true
  shown.mockClear()
  answered.mockClear()
  SmartAccount.configureSmartAccounts({ networks: [31337], factory: devnet.factory })
})

describe('the active account', () => {
  test('eth_accounts names the smart account by default, the EOA once the user prefers it, nobody when signed out', async () => {
    const { owner, smart } = await newUser()
    expect(await request('eth_accounts', [])).toEqual([smart])
    expect(await request('eth_requestAccounts', [])).toEqual([smart])
    SmartAccount.setPreferredType('eoa')
    expect(await request('eth_accounts', [])).toEqual([owner.address])
    edge.owner = undefined
    expect(await request('eth_accounts', [])).toEqual([])
  })

  test('wallet_getCapabilities: atomic batches and paymaster service for the smart account, none for the EOA, 4100 for a stranger', async () => {
    const { owner, smart } = await newUser()
    expect(await request('wallet_getCapabilities', [smart])).toEqual({
      '0x7a69': {
        atomic: { status: 'supported' },
        paymasterService: { supported: true },
        permissions: SESSION_CAPABILITY,
      },
    })
    expect(await request('wallet_getCapabilities', [smart, ['0x7a69', '0x1']])).toEqual({
      '0x7a69': {
        atomic: { status: 'supported' },
        paymasterService: { supported: true },
        permissions: SESSION_CAPABILITY,
      },
      '0x1': { atomic: { status: 'unsupported' } },
    })
    expect(await request('wallet_getCapabilities', [owner.address])).toEqual({
      '0x7a69': { atomic: { status: 'unsupported' } },
    })
    expect(await codeOf(request('wallet_getCapabilities', [friend()]))).toBe(4100)
  })
})

describe('eth_sendTransaction from the smart account', () => {
  test('a sponsored pUSD transfer: the card names the token, amount and sponsor; the account deploys; its ETH stays 0; the answer is the bundle’s transaction hash', async () => {
    const { smart } = await newUser(10_000_000n)
    const to = friend()
    const hash = (await request('eth_sendTransaction', [
      { from: smart, to: devnet.token, data: erc20('transfer', [to, 2_000_000n]) },
    ])) as Hex
    const [card] = edge.cards
    expect(card?.title).toBe('Send transaction')
    expect(field(card, 'From')).toBe(smart)
    expect(field(card, 'Account')).toBe('Smart account (deployed by this transaction)')
    expect(field(card, 'Action')).toBe(`Transfer 2 pUSD to ${to}`)
    expect(field(card, 'Gas')).toBe('Gas paid by Porthole Devnet')
    expect(card?.effects).toBe('−2 pUSD')
    expect(card?.blocked).toBeUndefined()
    expect(shown).toHaveBeenCalledOnce()
    expect(answered).toHaveBeenCalledOnce()
    const receipt = await client().getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await devnet.tokenBalance(to)).toBe(2_000_000n)
    expect(await client().getBalance({ address: smart })).toBe(0n)
    expect(await client().getCode({ address: smart })).toMatch(/^0x[0-9a-f]+$/)
  })

  test('rejected on the card: 4001 and nothing reaches the bundler', async () => {
    const { smart } = await newUser(1_000_000n)
    edge.approve = false
    const before = devnet.sent.size
    expect(
      await codeOf(
        request('eth_sendTransaction', [
          { from: smart, to: devnet.token, data: erc20('transfer', [friend(), 1n]) },
        ]),
      ),
    ).toBe(4001)
    expect(devnet.sent.size).toBe(before)
  })

  test('sponsorship refused and no ETH: the clear error, before any card', async () => {
    const { smart } = await newUser()
    devnet.sponsorship.on = false
    await expect(
      request('eth_sendTransaction', [{ from: smart, to: friend(), value: '0x1' }]),
    ).rejects.toThrow('Gas sponsorship is unavailable and the account has no ETH for gas')
    expect(edge.cards).toHaveLength(0)
  })

  test('sponsorship refused with ETH: the card says the user pays and shows the max fee', async () => {
    const { smart } = await newUser()
    devnet.sponsorship.on = false
    await devnet.setBalance(smart, parseEther('1'))
    const to = friend()
    await request('eth_sendTransaction', [{ from: smart, to, value: toHex(parseEther('0.1')) }])
    const [card] = edge.cards
    expect(field(card, 'Gas')).toBe('You pay the gas')
    expect(field(card, 'Max fee')).toMatch(/ ETH$/)
    expect(field(card, 'Amount')).toBe('0.1 ETH')
    expect(await client().getBalance({ address: to })).toBe(parseEther('0.1'))
  })

  test('a contract deployment cannot come from the smart account', async () => {
    const { smart } = await newUser()
    expect(await codeOf(request('eth_sendTransaction', [{ from: smart, data: '0x6000' }]))).toBe(
      -32602,
    )
  })
})

describe('EIP-5792 calls', () => {
  test('approve + transfer land atomically in one user operation; the card shows both calls and the sponsor; the status is confirmed with the receipt', async () => {
    const { smart } = await newUser(10_000_000n)
    const spender = friend()
    const to = friend()
    const { id } = (await request('wallet_sendCalls', [
      {
        version: '2.0.0',
        chainId: '0x7a69',
        from: smart,
        atomicRequired: true,
        calls: [
          { to: devnet.token, data: erc20('approve', [spender, 5_000_000n]) },
          { to: devnet.token, data: erc20('transfer', [to, 3_000_000n]) },
        ],
      },
    ])) as { id: Hex }
    expect(id).toMatch(/^0x[0-9a-f]{64}$/)
    expect(edge.cards).toHaveLength(1)
    const [card] = edge.cards
    expect(card?.title).toBe('Send calls')
    expect(field(card, 'Call 1 · Action')).toBe(`Approve ${spender} to spend 5 pUSD`)
    expect(field(card, 'Call 2 · Action')).toBe(`Transfer 3 pUSD to ${to}`)
    expect(field(card, 'Gas')).toBe('Gas paid by Porthole Devnet')
    expect(card?.body?.label).toBe('Calls')
    const status = (await request('wallet_getCallsStatus', [id])) as {
      status: number
      receipts: { logs: unknown[]; status: Hex; transactionHash: Hex }[]
    }
    expect(status).toMatchObject({ version: '2.0.0', id, chainId: '0x7a69', atomic: true })
    expect(status.status).toBe(200)
    expect(status.receipts).toHaveLength(1)
    expect(status.receipts[0]?.status).toBe('0x1')
    // The token's Approval and Transfer, in one operation (beside the account's deployment).
    const logs = (status.receipts[0]?.logs ?? []) as { address: Address; topics: Hex[] }[]
    const tokenLogs = logs.filter((log) => log.address.toLowerCase() === devnet.token.toLowerCase())
    expect(tokenLogs.map((log) => log.topics[0])).toEqual([
      '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925',
      '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
    ])
    const tx = await client().getTransactionReceipt({
      hash: status.receipts[0]?.transactionHash as Hex,
    })
    expect(tx.status).toBe('success')
    expect(await devnet.tokenBalance(to)).toBe(3_000_000n)
    expect(
      await client().readContract({
        address: devnet.token,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [smart, spender],
      }),
    ).toBe(5_000_000n)
  })

  test('when one call fails none takes effect: the status is an on-chain revert (500)', async () => {
    const { smart } = await newUser(1_000_000n)
    const spender = friend()
    const { id } = (await request('wallet_sendCalls', [
      {
        version: '2.0.0',
        chainId: '0x7a69',
        atomicRequired: true,
        calls: [
          { to: devnet.token, data: erc20('approve', [spender, maxUint256]) },
          { to: devnet.token, data: erc20('transfer', [friend(), 9_000_000n]) },
        ],
      },
    ])) as { id: Hex }
    // An unlimited approval is called out on the card.
    expect(edge.cards[0]?.warnings).toEqual(['Call 1: this approval has no limit.'])
    const status = (await request('wallet_getCallsStatus', [id])) as { status: number }
    expect(status.status).toBe(500)
    expect(
      await client().readContract({
        address: devnet.token,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [smart, spender],
      }),
    ).toBe(0n)
  })

  test('the app’s own batch id is kept; the same id twice is refused (5720); an unknown id is 5730', async () => {
    await newUser(1_000_000n)
    const batch = {
      version: '2.0.0',
      id: 'order-42',
      chainId: '0x7a69',
      atomicRequired: true,
      calls: [{ to: devnet.token, data: erc20('transfer', [friend(), 1n]) }],
    }
    expect(await request('wallet_sendCalls', [batch])).toEqual({ id: 'order-42' })
    expect(await request('wallet_getCallsStatus', ['order-42'])).toMatchObject({
      id: 'order-42',
      status: 200,
    })
    expect(await codeOf(request('wallet_sendCalls', [batch]))).toBe(5720)
    expect(await codeOf(request('wallet_getCallsStatus', ['no-such-batch']))).toBe(5730)
    expect(await codeOf(request('wallet_getCallsStatus', [`0x${'12'.repeat(32)}`]))).toBe(5730)
  })

  test.each([
    [[{ to: 'abc' }], -32602, /'to' must start with 0x/],
    [[{ to: '0x1234' }], -32602, /'to' is not an address/],
    [
      [{ to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', data: '1234' }],
      -32602,
      /'data' must start with 0x/,
    ],
    [[], -32602, /at least one call/],
    [
      Array.from({ length: 21 }, () => ({ to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })),
      5740,
      /Bundle too large/,
    ],
  ])('the batch rules refuse %j (%i)', async (calls, code, message) => {
    await newUser()
    const sent = request('wallet_sendCalls', [
      { version: '2.0.0', chainId: '0x7a69', atomicRequired: true, calls },
    ])
    await expect(sent).rejects.toThrow(message)
    expect(await codeOf(sent)).toBe(code)
    expect(edge.cards).toHaveLength(0)
  })

  test('capabilities: an unknown non-optional one is 5700, an optional one is ignored; a paymaster service elsewhere than the API is 5700', async () => {
    await newUser(1_000_000n)
    const batch = (capabilities: unknown) => [
      {
        version: '2.0.0',
        chainId: '0x7a69',
        atomicRequired: true,
        calls: [{ to: devnet.token, data: erc20('transfer', [friend(), 1n]) }],
        capabilities,
      },
    ]
    expect(await codeOf(request('wallet_sendCalls', batch({ auxiliaryFunds: {} })))).toBe(5700)
    expect(
      await codeOf(
        request('wallet_sendCalls', batch({ paymasterService: { url: 'https://pm.example' } })),
      ),
    ).toBe(5700)
    devnet.contexts.length = 0
    await request(
      'wallet_sendCalls',
      batch({
        auxiliaryFunds: { optional: true },
        paymasterService: { url: 'http://127.0.0.1:4300/v1?chainId=eip155:31337', context: 'c1' },
      }),
    )
    expect(devnet.contexts).toContain('c1')
  })

  test('another chain than the wallet’s is 5710; from the EOA it is 5760 (no atomic batches)', async () => {
    const { owner } = await newUser(1_000_000n)
    const calls = [{ to: devnet.token, data: erc20('transfer', [friend(), 1n]) }]
    expect(
      await codeOf(
        request('wallet_sendCalls', [
          { version: '2.0.0', chainId: '0x7a6a', atomicRequired: true, calls },
        ]),
      ),
    ).toBe(5710)
    expect(
      await codeOf(
        request('wallet_sendCalls', [
          { version: '2.0.0', chainId: '0x7a69', from: owner.address, atomicRequired: true, calls },
        ]),
      ),
    ).toBe(5760)
  })

  test('wallet_showCallsStatus shows the status on a card with Close only', async () => {
    await newUser(1_000_000n)
    const { id } = (await request('wallet_sendCalls', [
      {
        version: '2.0.0',
        chainId: '0x7a69',
        atomicRequired: true,
        calls: [{ to: devnet.token, data: erc20('transfer', [friend(), 1n]) }],
      },
    ])) as { id: Hex }
    edge.cards.length = 0
    edge.approve = false // Close
    expect(await request('wallet_showCallsStatus', [id])).toBeNull()
    const [card] = edge.cards
    expect(card?.title).toBe('Calls status')
    expect(card?.dismissOnly).toBe('Close')
    expect(field(card, 'Status')).toBe('Confirmed')
    expect(field(card, 'Transaction')).toMatch(/^0x[0-9a-f]{64}$/)
  })
})

describe('signing as the smart account', () => {
  test('personal_sign and eth_signTypedData_v4 give signatures viem verifies for the smart account (ERC-6492 before deployment)', async () => {
    const { smart } = await newUser()
    const message = 'Sign in to the demo'
    const signature = (await request('personal_sign', [toHex(message), smart])) as Hex
    expect(isErc6492Signature(signature)).toBe(true)
    expect(field(edge.cards[0], 'Account')).toBe(smart)
    expect(field(edge.cards[0], 'Signs as')).toBe('Smart account (ERC-1271)')
    expect(await client().verifyMessage({ address: smart, message, signature })).toBe(true)
    const typed = {
      domain: { name: 'Demo', version: '1', chainId: 31337 },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        Greeting: [{ name: 'text', type: 'string' }],
      },
      primaryType: 'Greeting',
      message: { text: 'hi' },
    } as const
    const typedSignature = (await request('eth_signTypedData_v4', [
      smart,
      JSON.stringify(typed),
    ])) as Hex
    const { EIP712Domain: _, ...types } = typed.types
    expect(
      await client().verifyTypedData({
        ...typed,
        types,
        address: smart,
        signature: typedSignature,
      }),
    ).toBe(true)
  })

  test('the EOA still signs as itself when the request names it', async () => {
    const { owner } = await newUser()
    const signature = (await request('personal_sign', ['0x6869', owner.address])) as Hex
    expect(await client().verifyMessage({ address: owner.address, message: 'hi', signature })).toBe(
      true,
    )
    expect(field(edge.cards[0], 'Signs as')).toBeUndefined()
    expect(await codeOf(request('personal_sign', ['0x6869', friend()]))).toBe(4100)
  })
})

describe('issue 25 audit: permits say what the signature allows', () => {
  /** An address as the permit sentences cut it (first 4 and last 6 characters). */
  const short = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`
  /** An EIP-2612 permit of `value` on `token` for `spender`, as a dapp asks for it. */
  const permitRequest = (owner: Address, token: Address, spender: Address, value: bigint) => ({
    domain: { name: 'Porthole USD', version: '1', chainId: 31337, verifyingContract: token },
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: { owner, spender, value: value.toString(), nonce: 0, deadline: '1796126400' },
  })

  test('a Permit of max uint for a stranger on pUSD: the card names the spender, "unlimited" and the token read from the chain, and warns', async () => {
    const { owner } = await newUser()
    const stranger = friend()
    const typed = permitRequest(owner.address, devnet.token, stranger, maxUint256)
    await request('eth_signTypedData_v4', [owner.address, JSON.stringify(typed)])
    const card = edge.cards[0]
    console.log(
      `permit card: ${card?.title}; fields ${JSON.stringify(card?.fields.map((f) => f.label))}; warnings ${card?.warnings.length}`,
    )
    expect(card?.title).toBe('Token permit')
    expect(field(card, 'Spender')).toBe(stranger)
    expect(field(card, 'Token')).toBe('pUSD (Porthole USD)')
    expect(field(card, 'Allows')).toBe(
      `Lets ${short(stranger)} spend an unlimited amount of your pUSD until you revoke it`,
    )
    expect(card?.warnings).toEqual([
      'This signature is a token permit: the spender can use it to move your tokens later without asking you again. Sign it only if you trust this site.',
      `Unlimited: ${short(stranger)} could take all your pUSD, including what you receive later.`,
    ])
  })

  test('a permit on a contract that is no token: named as unreadable from the chain, amounts in base units, warned', async () => {
    const { owner } = await newUser()
    const stranger = friend()
    const notAToken = friend()
    const typed = permitRequest(owner.address, notAToken, stranger, 5n)
    await request('eth_signTypedData_v4', [owner.address, JSON.stringify(typed)])
    const card = edge.cards[0]
    expect(field(card, 'Token')).toBe('Not readable from the chain')
    expect(field(card, 'Allows')).toBe(
      `Lets ${short(stranger)} spend up to 5 base units of your the token at ${short(notAToken)} until you revoke it`,
    )
    expect(card?.warnings).toContain(
      `The chain did not name the token at ${short(notAToken)}: its amount is shown in base units.`,
    )
  })
})

describe('smart sessions', () => {
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600
  /** The grant a dapp asks for: `limit` pUSD base units to `to`, for its key. */
  const grantRequest = (key: Address, to: Address, limit: bigint) => [
    {
      expiry: inAnHour(),
      signer: { type: 'account', data: { id: key } },
      permissions: [
        {
          type: 'erc20-token-transfer',
          data: { address: devnet.token, ticker: 'pUSD' },
          policies: [
            { type: 'token-allowance', data: { allowance: `0x${limit.toString(16)}` } },
            { type: 'recipient', data: { address: to } },
          ],
        },
      ],
    },
  ]
  /** The dapp's side: prepare, sign with its key, send; resolves with the bundle id. */
  async function sessionSend(key: PrivateKeyAccount, context: string, to: Address, amount: bigint) {
    const prepared = (await request('wallet_prepareCalls', [
      {
        chainId: '0x7a69',
        calls: [{ to: devnet.token, data: erc20('transfer', [to, amount]) }],
        capabilities: { permissions: { context } },
      },
    ])) as { preparedCalls: unknown; signatureRequest: { hash: Hex }; context: string }
    const signature = await key.signMessage({ message: { raw: prepared.signatureRequest.hash } })
    return (await request('wallet_sendPreparedCalls', [
      { preparedCalls: prepared.preparedCalls, signature, context: prepared.context },
    ])) as { id: Hex }
  }

  test('grant shows the terms, installs them on chain and records them signed; the key then sends without a card within them', async () => {
    const { smart } = await newUser(10_000_000n)
    const key = privateKeyToAccount(generatePrivateKey())
    const to = friend()
    edge.v1.length = 0
    const granted = (await request(
      'wallet_grantPermissions',
      grantRequest(key.address, to, 5_000_000n),
    )) as {
      permissionsContext: string
    }
    const [card] = edge.cards
    expect(card?.title).toBe('Grant permissions')
    expect(field(card, 'Session key')).toBe(key.address)
    expect(field(card, 'Contract')).toBe(`pUSD (ERC-20 token) · ${getAddress(devnet.token)}`)
    expect(field(card, 'Spend limit')).toBe('5 pUSD')
    expect(field(card, 'Recipient')).toBe(to)
    expect(field(card, 'Function')).toBe('transfer: moves tokens, counted against the limit')
    expect(field(card, "Paymaster of the app's calls (no other)")).toBe(
      getAddress(devnet.paymaster),
    )
    expect(field(card, 'Expires')).toMatch(/\(in 1 hour\)$/)
    expect(granted.permissionsContext).toBe(key.address.toLowerCase())
    // Recorded with the API, signed by the account for this app.
    const [record] = edge.v1
    expect(record?.path).toBe(`/sessions/eip155:31337:${smart}`)
    const body = record?.body as { signature: Hex; origin: string; expiry: number; pci: string }
    expect(body.origin).toBe('http://localhost:4000')
    expect(
      await client().verifyMessage({
        address: smart,
        message: `Register session ${body.pci} until ${body.expiry} for http://localhost:4000`,
        signature: body.signature,
      }),
    ).toBe(true)

    const cards = edge.cards.length
    shown.mockClear()
    const { id } = await sessionSend(key, granted.permissionsContext, to, 2_000_000n)
    expect(edge.cards.length).toBe(cards)
    expect(shown).not.toHaveBeenCalled()
    expect(devnet.sent.has(id)).toBe(true)
    expect(await devnet.tokenBalance(to)).toBe(2_000_000n)
    expect(await client().getBalance({ address: smart })).toBe(0n)
    const status = (await request('wallet_getCallsStatus', [id])) as { status: number }
    expect(status.status).toBe(200)
  })

  test('outside the terms: over the limit, another recipient, a forged signature, after revoke', async () => {
    const { smart } = await newUser(10_000_000n)
    const key = privateKeyToAccount(generatePrivateKey())
    const to = friend()
    const { permissionsContext: context } = (await request(
      'wallet_grantPermissions',
      grantRequest(key.address, to, 3_000_000n),
    )) as { permissionsContext: string }
    await sessionSend(key, context, to, 2_000_000n)
    const refusal = async (promise: Promise<unknown>) => {
      try {
        await promise
      } catch (error) {
        return (error as Error).message
      }
      throw new Error('the request succeeded')
    }
    expect(await refusal(sessionSend(key, context, to, 1_500_000n))).toContain(
      "Over the session's spend limit: 1.5 pUSD asked, 1 pUSD of 3 pUSD left",
    )
    expect(await refusal(sessionSend(key, context, friend(), 1n))).toContain(
      'The session only pays',
    )
    // Another key signing the prepared operation: refused before the bundler.
    const before = devnet.sent.size
    expect(
      await refusal(sessionSend(privateKeyToAccount(generatePrivateKey()), context, to, 1n)),
    ).toContain('not the session key')
    expect(devnet.sent.size).toBe(before)
    // Revoked (no card: the paymaster pays), then refused.
    const cards = edge.cards.length
    expect(await request('wallet_revokePermissions', [{ permissionsContext: context }])).toBeNull()
    expect(edge.cards.length).toBe(cards)
    expect(await refusal(sessionSend(key, context, to, 1n))).toContain('The session was revoked')
    expect(await devnet.tokenBalance(to)).toBe(2_000_000n)
    expect(await devnet.tokenBalance(smart)).toBe(8_000_000n)
  })

  test('what the wallet refuses to grant: a key of its own, the wallet as signer, another chain, the EOA', async () => {
    const { owner, smart } = await newUser()
    const to = friend()
    expect(
      await codeOf(request('wallet_grantPermissions', grantRequest(owner.address, to, 1n))),
    ).toBe(-32602)
    expect(await codeOf(request('wallet_grantPermissions', grantRequest(smart, to, 1n)))).toBe(
      -32602,
    )
    const [asked] = grantRequest(friend(), to, 1n)
    expect(
      await codeOf(request('wallet_grantPermissions', [{ ...asked, signer: { type: 'wallet' } }])),
    ).toBe(-32602)
    expect(await codeOf(request('wallet_grantPermissions', [{ ...asked, chainId: '0x1' }]))).toBe(
      4901,
    )
    SmartAccount.setPreferredType('eoa')
    expect(await codeOf(request('wallet_grantPermissions', [asked]))).toBe(4200)
    SmartAccount.setPreferredType('smartAccount')
    expect(edge.cards).toEqual([])
  })
})

describe('smart sessions attacked (issue 25)', () => {
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600
  const grantOf = (key: Address, permissions: unknown[], extra: Record<string, unknown> = {}) => [
    { expiry: inAnHour(), signer: { type: 'account', data: { id: key } }, permissions, ...extra },
  ]
  const pusdGrant = (key: Address, limit = 1_000_000n) =>
    grantOf(key, [
      {
        type: 'erc20-token-transfer',
        data: { address: devnet.token, ticker: 'pUSD' },
        policies: [{ type: 'token-allowance', data: { allowance: `0x${limit.toString(16)}` } }],
      },
    ])
  const onChain = async (smart: Address, key: Address) => {
    if (!(await client().getCode({ address: smart }))) return false
    const [, , , , , , active] = await client().readContract({
      address: smart,
      abi: portholeSessionsAbi,
      functionName: 'sessions',
      args: [key],
    })
    return active
  }
  const messageOf = async (promise: Promise<unknown>) => {
    try {
      await promise
    } catch (error) {
      return {
        code: (
          walk(error, (e) => typeof (e as { code?: unknown }).code === 'number') as {
            code?: number
          }
        )?.code,
        message: (error as Error).message,
      }
    }
    throw new Error('the request succeeded')
  }

  test('finding 4 and 7: approve, setApprovalForAll, permit are refused before any card; nothing is installed', async () => {
    const { smart } = await newUser(1_000_000n)
    edge.v1.length = 0
    for (const [signature, name] of [
      ['approve(address,uint256)', 'approve (0x095ea7b3)'],
      ['setApprovalForAll(address,bool)', 'setApprovalForAll (0xa22cb465)'],
      ['permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', 'permit (0xd505accf)'],
      ['increaseAllowance(address,uint256)', 'increaseAllowance (0x39509351)'],
    ] as const) {
      const key = friend()
      const refused = await messageOf(
        request(
          'wallet_grantPermissions',
          grantOf(key, [
            {
              type: 'contract-call',
              data: { address: devnet.token, calls: ['transfer(address,uint256)', signature] },
            },
          ]),
        ),
      )
      expect(refused.code).toBe(-32602)
      expect(refused.message).toContain(`A session cannot hold ${name}: the power it gives`)
      expect(await onChain(smart, key)).toBe(false)
    }
    expect(edge.cards).toEqual([])
    expect(edge.v1).toEqual([])
  })

  test('finding 4: a function Porthole cannot read is named loudly, never "None"', async () => {
    await newUser()
    edge.approve = false
    const refused = await messageOf(
      request(
        'wallet_grantPermissions',
        grantOf(friend(), [
          {
            type: 'contract-call',
            data: { address: devnet.token, calls: ['mint(address,uint256)', '0x12345678'] },
          },
        ]),
      ),
    )
    expect(refused.code).toBe(4001)
    const [card] = edge.cards
    expect(field(card, 'Function 1')).toBe(
      'Unknown function mint(address,uint256) (0x40c10f19): may move any asset of this contract',
    )
    expect(field(card, 'Function 2')).toBe(
      'Unknown function 0x12345678: may move any asset of this contract',
    )
    expect(field(card, 'Spend limit')).toBe('Not metered: Porthole cannot limit these functions')
    expect(field(card, 'Recipient')).toBeUndefined()
    expect(card?.warnings).toContain(
      "Porthole cannot tell what mint(address,uint256), 0x12345678 do. They may move any of this account's assets in this contract, with no limit, and what they do may last beyond the session.",
    )
    expect(JSON.stringify(card)).not.toContain('None')
  })

  test('finding 5: a grant padded with unknown JSON, or over 32 KiB, is refused before any card', async () => {
    await newUser()
    const [base] = pusdGrant(friend()) as unknown as [{ permissions: { data: object }[] }]
    const padded = {
      ...base,
      permissions: [
        {
          ...base.permissions[0],
          data: { ...base.permissions[0]?.data, note: 'x'.repeat(20_000) },
        },
      ],
    }
    expect(await messageOf(request('wallet_grantPermissions', [padded]))).toEqual({
      code: -32602,
      message: expect.stringContaining('Unknown field permissions[0].data.note'),
    })
    const huge = {
      ...base,
      permissions: [
        {
          ...base.permissions[0],
          data: { ...base.permissions[0]?.data, justification: 'x'.repeat(40_000) },
        },
      ],
    }
    expect((await messageOf(request('wallet_grantPermissions', [huge]))).message).toMatch(
      /a grant may be at most 32768 bytes/,
    )
    expect(edge.cards).toEqual([])
  })

  test('finding 5: when the API cannot list the session, it is not installed and not granted', async () => {
    const { smart } = await newUser()
    const key = friend()
    edge.v1Refuses = 413
    const refused = await messageOf(request('wallet_grantPermissions', pusdGrant(key)))
    expect(refused.message).toContain(
      'The session was not granted: the wallet could not list it in your account, so nothing was installed',
    )
    expect(edge.cards).toHaveLength(1)
    expect(await onChain(smart, key)).toBe(false)
    // Listed first, then installed: the registration went out before any operation.
    edge.v1Refuses = undefined
    const sent = devnet.sent.size
    await request('wallet_grantPermissions', pusdGrant(key))
    expect(devnet.sent.size).toBe(sent + 1)
    expect(await onChain(smart, key)).toBe(true)
  })

  test('finding 8: another site revoking a session asks the user; rejecting keeps it; its own site revokes without a card', async () => {
    const { smart } = await newUser()
    const key = friend()
    const { permissionsContext } = (await request('wallet_grantPermissions', pusdGrant(key))) as {
      permissionsContext: string
    }
    edge.cards.length = 0
    Rpc.setDappOrigin('https://other.example')
    edge.approve = false
    expect(await codeOf(request('wallet_revokePermissions', [{ permissionsContext }]))).toBe(4001)
    const [card] = edge.cards
    expect(card?.title).toBe('Revoke session')
    expect(card?.origin).toBe('https://other.example')
    expect(field(card, 'Granted to')).toBe('http://localhost:4000')
    expect(card?.warnings).toEqual([
      'This site asks to end the session that http://localhost:4000 holds. That app will no longer act for this account.',
    ])
    expect(await onChain(smart, key)).toBe(true)
    // A session the API does not list for any site: asked too.
    edge.listed.clear()
    Rpc.setDappOrigin('http://localhost:4000')
    expect(await codeOf(request('wallet_revokePermissions', [{ permissionsContext }]))).toBe(4001)
    expect(field(edge.cards[1], 'Granted to')).toBe('An app Porthole has no record of')
    // Approved from the other site: revoked.
    edge.approve = true
    Rpc.setDappOrigin('https://other.example')
    expect(await request('wallet_revokePermissions', [{ permissionsContext }])).toBeNull()
    expect(await onChain(smart, key)).toBe(false)
  })
})

describe('eth_sendUserOperation from the dapp', () => {
  /** A sponsored operation of the user's smart account, as a dapp's own AA library builds it. */
  async function dappOperation(to: Address, amount: bigint) {
    const prepared = await SmartAccount.prepareCalls(31337, [
      { to: devnet.token, value: 0n, data: erc20('transfer', [to, amount]) },
    ])
    return formatUserOperationRequest(prepared.userOperation)
  }

  test('the card shows its calls and its paymaster; approved, the owner signs and it lands', async () => {
    const { smart } = await newUser(5_000_000n)
    const to = friend()
    const op = await dappOperation(to, 1_000_000n)
    const hash = (await request('eth_sendUserOperation', [op, entryPoint07Address])) as Hex
    const [card] = edge.cards
    expect(card?.title).toBe('Send user operation')
    expect(field(card, 'From')).toBe(smart)
    expect(field(card, 'Action')).toBe(`Transfer 1 pUSD to ${to}`)
    expect(field(card, 'Gas')?.toLowerCase()).toBe(
      `gas paid by paymaster ${devnet.paymaster.toLowerCase()}`,
    )
    expect(devnet.sent.has(hash)).toBe(true)
    expect(await devnet.tokenBalance(to)).toBe(1_000_000n)
  })

  test('refused: another sender, another EntryPoint, a call the account cannot make, a rejected card', async () => {
    await newUser(5_000_000n)
    const op = await dappOperation(friend(), 1n)
    const before = devnet.sent.size
    expect(
      await codeOf(
        request('eth_sendUserOperation', [{ ...op, sender: friend() }, entryPoint07Address]),
      ),
    ).toBe(4100)
    expect(await codeOf(request('eth_sendUserOperation', [op, friend()]))).toBe(-32602)
    expect(
      await codeOf(
        request('eth_sendUserOperation', [{ ...op, callData: '0xdeadbeef' }, entryPoint07Address]),
      ),
    ).toBe(-32602)
    edge.approve = false
    expect(await codeOf(request('eth_sendUserOperation', [op, entryPoint07Address]))).toBe(4001)
    expect(devnet.sent.size).toBe(before)
  })
})

describe('issue 25 audit: what the host says cannot change what the card shows or what is signed', () => {
  test('a host that calls ETH a 36-decimal currency: the card still says 0.1 ETH (was 0.0000000000000000001 ETH)', async () => {
    const { smart } = await newUser()
    await devnet.setBalance(smart, parseEther('1'))
    Rpc.setNetworks([{ chainId: 31337, name: 'Porthole Devnet', symbol: 'ETH', decimals: 36 }])
    try {
      edge.approve = false
      const sending = request('eth_sendTransaction', [
        { from: smart, to: friend(), value: toHex(parseEther('0.1')) },
      ])
      expect(await codeOf(sending)).toBe(4001)
      expect(field(edge.cards[0], 'Amount')).toBe('0.1 ETH')
      expect(edge.cards[0]?.effects).toBe('−0.1 ETH')
    } finally {
      Rpc.setNetworks([{ chainId: 31337, name: 'Porthole Devnet', symbol: 'ETH', decimals: 18 }])
    }
  })

  /** The account's own `grantSession`, as a hostile page would ask it: any pUSD, any recipient, forever. */
  const grantToThief = (thief: Address) =>
    encodeFunctionData({
      abi: portholeSessionsAbi,
      functionName: 'grantSession',
      args: [
        thief,
        devnet.token,
        ['0xa9059cbb'],
        friend(),
        maxUint256,
        0,
        2 ** 47,
        SESSION_KIND.erc20,
        devnet.paymaster,
      ],
    })
  const sessionOf = (smart: Address, key: Address) =>
    client().readContract({
      address: smart,
      abi: portholeSessionsAbi,
      functionName: 'sessions',
      args: [key],
    }) as Promise<readonly unknown[]>

  test("a site cannot call the account's own functions or the EntryPoint: refused (4100) before any card, nothing installed", async () => {
    const { owner, smart } = await newUser(5_000_000n)
    const thief = friend()
    const before = devnet.sent.size
    // wallet_sendCalls, one call to the account itself (was: a plain card with raw calldata and
    // no warning; approved, the thief's key could move every pUSD)
    expect(
      await codeOf(
        request('wallet_sendCalls', [
          {
            version: '2.0.0',
            chainId: '0x7a69',
            from: smart,
            atomicRequired: true,
            calls: [{ to: smart, data: grantToThief(thief) }],
          },
        ]),
      ),
    ).toBe(4100)
    // eth_sendTransaction from the smart account to itself
    expect(
      await codeOf(
        request('eth_sendTransaction', [{ from: smart, to: smart, data: grantToThief(thief) }]),
      ),
    ).toBe(4100)
    // eth_sendUserOperation whose execute calls the account itself
    const prepared = await SmartAccount.prepareCalls(31337, [
      { to: devnet.token, value: 0n, data: erc20('transfer', [friend(), 1n]) },
    ])
    const op = formatUserOperationRequest(prepared.userOperation)
    const selfCall = encodeFunctionData({
      abi: simpleAccountAbi,
      functionName: 'execute',
      args: [smart, 0n, grantToThief(thief)],
    })
    expect(
      await codeOf(
        request('eth_sendUserOperation', [{ ...op, callData: selfCall }, entryPoint07Address]),
      ),
    ).toBe(4100)
    // the EntryPoint: the account's deposit there is the account's money too
    expect(
      await codeOf(
        request('eth_sendTransaction', [
          { from: smart, to: entryPoint07Address, data: '0x205c2878' },
        ]),
      ),
    ).toBe(4100)
    // from the EOA (the account's owner): a call to the smart account is the owner's call
    expect(
      await codeOf(
        request('eth_sendTransaction', [
          { from: owner.address, to: smart, data: grantToThief(thief) },
        ]),
      ),
    ).toBe(4100)
    expect(edge.cards).toHaveLength(0)
    expect(devnet.sent.size).toBe(before)
    if (await client().getCode({ address: smart }))
      expect((await sessionOf(smart, thief))[6]).toBe(false)
  })

  test("typed data the owner would sign for its own smart account (the account's ERC-1271 wrapper) is refused before any card", async () => {
    const { owner, smart } = await newUser(1_000_000n)
    // Deploy the account (a sponsored transfer), so isValidSignature answers on chain.
    await request('eth_sendTransaction', [
      { from: smart, to: devnet.token, data: erc20('transfer', [friend(), 1n]) },
    ])
    edge.cards.length = 0
    // What a host asks the owner EOA for: `PortholeAccountMessage(hash)` under the account's own
    // domain, `hash` being anything it wants the account to have signed (a permit, an order…).
    const anything = keccak256(toHex('the account approves whatever this hash is'))
    const wrapper = {
      domain: {
        name: 'Porthole Simple Account',
        version: '1',
        chainId: 31337,
        verifyingContract: smart,
      },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        PortholeAccountMessage: [{ name: 'hash', type: 'bytes32' }],
      },
      primaryType: 'PortholeAccountMessage',
      message: { hash: anything },
    }
    const signing = request('eth_signTypedData_v4', [owner.address, JSON.stringify(wrapper)])
    // Was: a "Sign typed data" card showing an opaque hash; approved, the smart account's
    // isValidSignature(hash, signature) answered 0x1626ba7e for whatever the host chose.
    expect(await codeOf(signing)).toBe(4100)
    expect(edge.cards).toHaveLength(0)
  })

  /** A sign-in message (EIP-4361) for `domain`, from `address`. */
  const signIn = (domain: string, address: Address) =>
    formatSiwxMessage('eip155', {
      domain,
      address,
      uri: `https://${domain}`,
      version: '1',
      chainId: '31337',
      nonce: 'k2Jf8sLq0aZ',
      issuedAt: new Date().toISOString(),
    })

  test('personal_sign of a sign-in message for another site is refused before any card (EIP-4361 phishing); one for the asking site is signed', async () => {
    const { smart } = await newUser()
    const message = signIn('bank.example', smart)
    expect(await codeOf(request('personal_sign', [toHex(message), smart]))).toBe(4100)
    expect(await codeOf(request('personal_sign', [message, smart]))).toBe(4100)
    expect(edge.cards).toHaveLength(0)
    // The site the modal verified (localhost:4000) signs in to itself as before.
    const own = signIn('localhost:4000', smart)
    const signature = (await request('personal_sign', [toHex(own), smart])) as Hex
    expect(edge.cards).toHaveLength(1)
    expect(await client().verifyMessage({ address: smart, message: own, signature })).toBe(true)
  })
})
