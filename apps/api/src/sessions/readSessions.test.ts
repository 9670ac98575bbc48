/** The on-chain session reader against a real anvil (and upstreams that do not answer). */
import { createServer, type Server } from 'node:http'
import { deployTestTokens, type StartAnvilReturnType, startAnvil } from '@porthole/devnet'
import { createPublicClient, getAddress, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freePort } from '../../test/freePort.js'
import { deploySessionAccountStub, type SessionAccountStub } from '../../test/sessionAccountStub.js'
import { createSessionReader } from './readSessions.js'

const CHAIN = 'eip155:31337'
const owner = privateKeyToAccount(generatePrivateKey())
const key = privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as `0x${string}`
const otherKey = privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as `0x${string}`
const target = getAddress('0x1111111111111111111111111111111111111111')
const recipient = getAddress('0x2222222222222222222222222222222222222222')
const paymaster = getAddress('0x4444444444444444444444444444444444444444')

let anvil: StartAnvilReturnType
let stub: SessionAccountStub

beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
  stub = await deploySessionAccountStub(anvil.rpcUrl, owner.address)
  await stub.setSession(getAddress(key), {
    target,
    recipient,
    spendLimit: 10n ** 30n,
    spent: 12345n,
    validAfter: 100,
    validUntil: 2_000_000_000,
    active: true,
    kind: 1,
    paymaster,
  })
})
afterAll(async () => {
  await anvil?.stop()
})

describe('createSessionReader', () => {
  test('reads each key of an account, a granted one and one never granted, in order', async () => {
    const reader = createSessionReader({ [CHAIN]: anvil.rpcUrl })
    expect(reader.supports(31337)).toBe(true)
    expect(
      await reader.read({ chainId: 31337, account: stub.address, keys: [key, otherKey] }),
    ).toEqual([
      {
        active: true,
        target,
        recipient,
        spendLimit: 10n ** 30n,
        spent: 12345n,
        validAfter: 100,
        validUntil: 2_000_000_000,
        kind: 'erc20',
        paymaster,
        token: null,
      },
      {
        active: false,
        target: '0x0000000000000000000000000000000000000000',
        recipient: '0x0000000000000000000000000000000000000000',
        spendLimit: 0n,
        spent: 0n,
        validAfter: 0,
        validUntil: 0,
        kind: 'other',
        paymaster: '0x0000000000000000000000000000000000000000',
        token: null,
      },
    ])
  })

  test('the limit counts what the kind says: an ERC-20 in its decimals, a collection in whole NFTs, no kind no token', async () => {
    const [pusd] = await deployTestTokens({ rpcUrl: anvil.rpcUrl, recipients: [] })
    const keys = [1, 2, 0].map(() => privateKeyToAccount(generatePrivateKey()).address)
    for (const [i, kind] of [1, 2, 0].entries())
      await stub.setSession(keys[i]!, {
        target: pusd!.address,
        recipient,
        spendLimit: 5n,
        spent: 0n,
        validAfter: 0,
        validUntil: 2_000_000_000,
        active: true,
        kind,
        paymaster,
      })
    const reader = createSessionReader({ [CHAIN]: anvil.rpcUrl })
    const read = await reader.read({ chainId: 31337, account: stub.address, keys })
    expect(read.map((session) => [session?.kind, session?.token])).toEqual([
      ['erc20', { symbol: 'pUSD', decimals: 6 }],
      ['erc721', { symbol: 'pUSD', decimals: 0 }],
      ['other', null],
    ])
  })

  test('an address without the getter holds no session: an EOA, or a contract that reverts', async () => {
    const reverting = getAddress('0x3333333333333333333333333333333333333333')
    await createPublicClient({ transport: http(anvil.rpcUrl) }).request({
      method: 'anvil_setCode' as never,
      params: [reverting, '0x5f5ffd'] as never, // PUSH0 PUSH0 REVERT
    })
    const reader = createSessionReader({ [CHAIN]: anvil.rpcUrl })
    const [eoa] = await reader.read({ chainId: 31337, account: owner.address, keys: [key] })
    const [contract] = await reader.read({ chainId: 31337, account: reverting, keys: [key] })
    expect(eoa).toMatchObject({ active: false, validUntil: 0 })
    expect(contract).toMatchObject({ active: false, validUntil: 0 })
  })

  test('a chain without an upstream, or one that does not answer, reads null for every key', async () => {
    const none = createSessionReader({})
    expect(none.supports(31337)).toBe(false)
    expect(await none.read({ chainId: 31337, account: stub.address, keys: [key] })).toEqual([null])

    const closed = createSessionReader({ [CHAIN]: `http://127.0.0.1:${await freePort()}` })
    expect(
      await closed.read({ chainId: 31337, account: stub.address, keys: [key, otherKey] }),
    ).toEqual([null, null])
  })

  test('a node that hangs is given up after the timeout', async () => {
    const hanging: Server = createServer(() => {}) // never answers
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    const { port } = hanging.address() as { port: number }
    try {
      const reader = createSessionReader(
        { [CHAIN]: `http://127.0.0.1:${port}` },
        { timeoutMs: 300 },
      )
      const started = Date.now()
      expect(await reader.read({ chainId: 31337, account: stub.address, keys: [key] })).toEqual([
        null,
      ])
      expect(Date.now() - started).toBeLessThan(2000)
    } finally {
      hanging.closeAllConnections()
      await new Promise((resolve) => hanging.close(resolve))
    }
  })
})
