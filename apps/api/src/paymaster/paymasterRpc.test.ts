import { type StartBundlerReturnType, startBundler } from '@porthole/bundler'
import {
  devnetChain,
  type StartDevnetReturnType,
  startDevnet,
  toSimpleAccount,
} from '@porthole/devnet'
import { DEVNET_AA, ENTRY_POINT_07, PAYMASTER_SIGNER } from '@porthole/shared/devnet'
import {
  type Address,
  createPublicClient,
  custom,
  type Hex,
  numberToHex,
  parseAbi,
  recoverMessageAddress,
} from 'viem'
import { createBundlerClient, toPackedUserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { addProjectUser } from '../../test/paymasterAttacker.js'
import { createTestApp, PROJECT_ID, type TestApp } from '../../test/testApp.js'
import { getProject } from '../projects/getProject.js'
import { resolvePaymasterConfig } from './config.js'
import {
  createPaymasterRpc,
  PAYMASTER_ERRORS,
  PAYMASTER_GAS,
  type PaymasterRpcResult,
} from './paymasterRpc.js'
import {
  projectSponsoredToday,
  setSponsorshipRules,
  sponsoredToday,
  takeSponsorship,
} from './sponsorship.js'
import { parseVerifyingPaymasterData, verifyingPaymasterHash } from './verifyingPaymaster.js'

const CHAIN = 'eip155:31337'
const paymasterAbi = parseAbi([
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'function getHash(PackedUserOperation userOp, uint48 validUntil, uint48 validAfter) view returns (bytes32)',
])

type RpcAnswer = { id: unknown; result?: unknown; error?: { code: number; message: string } }

/** The devnet's paymaster on CHAIN only, with the default policy (sponsorships valid 600 s). */
const paymasterConfig = {
  ...resolvePaymasterConfig({}, { production: false }),
  signerKey: PAYMASTER_SIGNER.privateKey,
  addresses: { [CHAIN]: DEVNET_AA.paymaster },
  accountFactories: { [CHAIN]: DEVNET_AA.accountFactory },
}

let devnet: StartDevnetReturnType
let bundler: StartBundlerReturnType
let t: TestApp
let projectName: string

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, chainId: 31337, silent: true })
  bundler = await startBundler({ port: 0, rpcUrl: devnet.rpcUrl, chainId: 31337, silent: true })
  t = await createTestApp({
    upstreams: { [CHAIN]: devnet.rpcUrl },
    bundlers: { [CHAIN]: bundler.url },
    paymaster: paymasterConfig,
  })
  projectName = (await getProject(t.db, PROJECT_ID))!.name
}, 60_000)
afterAll(async () => {
  await t?.close()
  await bundler?.stop()
  await devnet?.stop()
})
beforeEach(() =>
  setSponsorshipRules(t.db, {
    projectId: PROJECT_ID,
    enabled: true,
    dailyCap: 20,
    projectDailyCap: 1000,
  }),
)

/** POSTs to the proxy: one request (params given) or a batch. */
async function rpc(method: string, params: unknown[]): Promise<RpcAnswer>
async function rpc(batch: unknown[]): Promise<RpcAnswer[]>
async function rpc(methodOrBatch: string | unknown[], params?: unknown[]) {
  const body =
    typeof methodOrBatch === 'string'
      ? { jsonrpc: '2.0', id: 1, method: methodOrBatch, params }
      : methodOrBatch
  const response = await t.post(`/v1?chainId=${CHAIN}`, body)
  expect(response.status).toBe(200)
  return response.json()
}

/** A viem transport over the API's proxy. */
const proxy = custom({
  async request({ method, params }) {
    const answer = await rpc(method, params as unknown[])
    if (answer.error) throw Object.assign(new Error(answer.error.message), answer.error)
    return answer.result
  },
})
const client = createPublicClient({
  chain: devnetChain({ chainId: 31337, rpcUrl: 'http://unused.invalid' }),
  transport: proxy,
  pollingInterval: 50,
})

/** A new user of the project: its wallet key (the owner of its smart account). */
async function projectUser() {
  const owner = privateKeyToAccount(generatePrivateKey())
  await addProjectUser(t.db, PROJECT_ID, owner.address)
  return owner
}

/** The bundler's own price (alto's `standard`), as the wallet asks for it. */
async function bundlerPrice() {
  const { result } = await rpc('pimlico_getUserOperationGasPrice', [])
  const { standard } = result as { standard: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex } }
  return {
    maxFeePerGas: BigInt(standard.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(standard.maxPriorityFeePerGas),
  }
}

/** A user operation of a new project user's account (not deployed), as ERC-7677 sends it. */
async function userOperation(gas = true) {
  const owner = await projectUser()
  const account = await toSimpleAccount({ client, owner })
  const { factory, factoryData } = await account.getFactoryArgs()
  const op: Record<string, Hex> = {
    sender: await account.getAddress(),
    nonce: numberToHex(await account.getNonce()),
    factory: factory!,
    factoryData: factoryData!,
    callData: await account.encodeCalls([{ to: owner.address, value: 0n }]),
  }
  if (gas)
    Object.assign(op, {
      callGasLimit: '0x186a0',
      verificationGasLimit: '0x7a120',
      preVerificationGas: '0xea60',
      maxFeePerGas: '0x77359400',
      maxPriorityFeePerGas: '0x3b9aca00',
    })
  return op
}
const chainIdHex = numberToHex(31337)

describe('ERC-4337 methods through the proxy', () => {
  test('go to the chain bundler, alone or in a batch with chain methods', async () => {
    expect(await rpc('eth_supportedEntryPoints', [])).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: [ENTRY_POINT_07],
    })
    const prices = await rpc('pimlico_getUserOperationGasPrice', [])
    expect(prices.result).toMatchObject({
      slow: { maxFeePerGas: expect.stringMatching(/^0x/) },
      fast: { maxPriorityFeePerGas: expect.stringMatching(/^0x/) },
    })
    const unknownHash = `0x${'ab'.repeat(32)}`
    expect(
      await rpc([
        { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 'b', method: 'eth_supportedEntryPoints', params: [] },
        { jsonrpc: '2.0', id: 'c', method: 'eth_getUserOperationReceipt', params: [unknownHash] },
        { jsonrpc: '2.0', id: 'd', method: 'eth_blockNumber' },
        { jsonrpc: '2.0', id: 'e', method: 'eth_sign', params: [] },
      ]),
    ).toEqual([
      { jsonrpc: '2.0', id: 'a', result: '0x7a69' },
      { jsonrpc: '2.0', id: 'b', result: [ENTRY_POINT_07] },
      { jsonrpc: '2.0', id: 'c', result: null },
      { jsonrpc: '2.0', id: 'd', result: expect.stringMatching(/^0x/) },
      {
        jsonrpc: '2.0',
        id: 'e',
        error: { code: -32601, message: 'Requested RPC call is not allowed' },
      },
    ])
  })
})

describe('the paymaster (ERC-7677)', () => {
  test('stub data: placeholder data of the final length, gas limits, sponsor; counts nothing', async () => {
    const op = await userOperation(false)
    const { result } = await rpc('pm_getPaymasterStubData', [op, ENTRY_POINT_07, chainIdHex, {}])
    expect(result).toEqual({
      paymaster: DEVNET_AA.paymaster,
      paymasterData: expect.stringMatching(/^0x[0-9a-f]{258}$/),
      paymasterVerificationGasLimit: numberToHex(PAYMASTER_GAS.verification),
      paymasterPostOpGasLimit: numberToHex(PAYMASTER_GAS.postOp),
      sponsor: { name: projectName },
      isFinal: false,
    })
    expect(await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: op.sender! })).toBe(0)
  })

  test('final data: signed by the paymaster key over the hash the contract computes', async () => {
    const op = await userOperation()
    const result = (await rpc('pm_getPaymasterData', [op, ENTRY_POINT_07, chainIdHex, null]))
      .result as PaymasterRpcResult
    expect(result).toMatchObject({
      paymaster: DEVNET_AA.paymaster,
      paymasterVerificationGasLimit: numberToHex(PAYMASTER_GAS.verification),
      paymasterPostOpGasLimit: numberToHex(PAYMASTER_GAS.postOp),
      sponsor: { name: projectName },
    })
    expect(result.isFinal).toBeUndefined()
    const { validUntil, validAfter, signature } = parseVerifyingPaymasterData(result.paymasterData)
    expect(validAfter).toBe(0)
    // Valid for what a send needs: 10 minutes.
    expect(validUntil).toBeGreaterThan(Date.now() / 1000 + 590)
    expect(validUntil).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 600)
    const full = {
      sender: op.sender as Address,
      nonce: BigInt(op.nonce!),
      factory: op.factory as Address,
      factoryData: op.factoryData as Hex,
      callData: op.callData as Hex,
      callGasLimit: BigInt(op.callGasLimit!),
      verificationGasLimit: BigInt(op.verificationGasLimit!),
      preVerificationGas: BigInt(op.preVerificationGas!),
      maxFeePerGas: BigInt(op.maxFeePerGas!),
      maxPriorityFeePerGas: BigInt(op.maxPriorityFeePerGas!),
      paymasterVerificationGasLimit: PAYMASTER_GAS.verification,
      paymasterPostOpGasLimit: PAYMASTER_GAS.postOp,
    }
    const onChain = await client.readContract({
      address: DEVNET_AA.paymaster,
      abi: paymasterAbi,
      functionName: 'getHash',
      args: [
        toPackedUserOperation({
          ...full,
          paymaster: DEVNET_AA.paymaster,
          paymasterData: result.paymasterData,
          signature: '0x',
        }),
        validUntil,
        validAfter,
      ],
    })
    const offChain = verifyingPaymasterHash({
      userOperation: full,
      chainId: 31337,
      paymaster: DEVNET_AA.paymaster,
      validUntil,
      validAfter,
    })
    expect(offChain).toBe(onChain)
    expect(await recoverMessageAddress({ message: { raw: onChain }, signature })).toBe(
      PAYMASTER_SIGNER.address,
    )
    expect(await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: op.sender! })).toBe(1)
  })

  test('a sponsored user operation from an account with no ETH lands, through the proxy alone', async () => {
    const account = await toSimpleAccount({ client, owner: await projectUser() })
    const sender = await account.getAddress()
    const to = privateKeyToAccount(generatePrivateKey()).address
    const bundlerClient = createBundlerClient({
      account,
      client,
      transport: proxy,
      paymaster: true,
      pollingInterval: 50,
    })
    const started = performance.now()
    const hash = await bundlerClient.sendUserOperation({ calls: [{ to, value: 0n }] })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    console.info(`sponsored user operation landed in ${Math.round(performance.now() - started)} ms`)
    expect(receipt).toMatchObject({ success: true, sender, paymaster: DEVNET_AA.paymaster })
    expect(await client.getBalance({ address: sender })).toBe(0n)
    expect((await client.getCode({ address: sender }))?.length).toBeGreaterThan(2)
    expect((await rpc('eth_getUserOperationByHash', [hash])).result).toMatchObject({
      userOperation: { sender },
      entryPoint: ENTRY_POINT_07,
      transactionHash: receipt.receipt.transactionHash,
    })
    expect(await sponsoredToday(t.db, { projectId: PROJECT_ID, sender })).toBe(1)
  })

  test('off for the project: both methods refused with the clear error', async () => {
    await setSponsorshipRules(t.db, { projectId: PROJECT_ID, enabled: false })
    const op = await userOperation()
    for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData'])
      expect(await rpc(method, [op, ENTRY_POINT_07, chainIdHex, {}])).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32002, message: 'Gas sponsorship is off for this project' },
      })
    expect(await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: op.sender! })).toBe(0)
  })

  test('the daily cap: an account that sent N sponsored operations is refused the N+1th, others go on', async () => {
    await setSponsorshipRules(t.db, { projectId: PROJECT_ID, dailyCap: 2 })
    const account = await toSimpleAccount({ client, owner: await projectUser() })
    const bundlerClient = createBundlerClient({
      account,
      client,
      transport: proxy,
      paymaster: true,
      pollingInterval: 50,
      userOperation: { estimateFeesPerGas: bundlerPrice },
    })
    for (let i = 0; i < 2; i++) {
      const hash = await bundlerClient.sendUserOperation({ calls: [{ to: account.address }] })
      await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    }
    const refused = {
      code: PAYMASTER_ERRORS.dailyCap.code,
      message: 'Daily sponsorship limit reached for this account',
      data: { dailyCap: 2 },
    }
    const next = {
      sender: account.address,
      nonce: numberToHex(await account.getNonce()),
      callData: await account.encodeCalls([{ to: account.address, value: 0n }]),
      callGasLimit: '0x186a0',
      verificationGasLimit: '0x7a120',
      preVerificationGas: '0xea60',
      maxFeePerGas: '0x77359400',
      maxPriorityFeePerGas: '0x3b9aca00',
    }
    for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData'])
      expect((await rpc(method, [next, ENTRY_POINT_07, chainIdHex, {}])).error).toEqual(refused)
    expect(await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: account.address })).toBe(2)
    const other = await userOperation()
    expect(
      (await rpc('pm_getPaymasterData', [other, ENTRY_POINT_07, chainIdHex, {}])).result,
    ).toBeDefined()
  })

  test('the same operation slot asked again is the same sponsorship: counted once', async () => {
    const op = await userOperation()
    const final = () => rpc('pm_getPaymasterData', [op, ENTRY_POINT_07, chainIdHex, {}])
    for (let i = 0; i < 3; i++)
      expect((await final()).result).toMatchObject({ paymasterData: expect.stringMatching(/^0x/) })
    expect(await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: op.sender! })).toBe(1)
  })

  test('the daily cap per project: once reached, a fresh account is refused too', async () => {
    // Earlier tests sponsored some today: the cap leaves room for one more.
    const already = await projectSponsoredToday(t.db, { projectId: PROJECT_ID })
    await setSponsorshipRules(t.db, { projectId: PROJECT_ID, projectDailyCap: already + 1 })
    const first = await userOperation()
    expect(
      (await rpc('pm_getPaymasterData', [first, ENTRY_POINT_07, chainIdHex, {}])).result,
    ).toMatchObject({ paymasterData: expect.stringMatching(/^0x/) })
    const refused = {
      code: -32003,
      message: 'Daily sponsorship limit reached for this project',
      data: { projectDailyCap: already + 1 },
    }
    const fresh = await userOperation()
    for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData'])
      expect((await rpc(method, [fresh, ENTRY_POINT_07, chainIdHex, {}])).error).toEqual(refused)
    expect(await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: fresh.sender! })).toBe(0)
    expect(await projectSponsoredToday(t.db, { projectId: PROJECT_ID })).toBe(already + 1)
    // A higher cap lets it through at once.
    await setSponsorshipRules(t.db, { projectId: PROJECT_ID, projectDailyCap: already + 2 })
    expect(
      (await rpc('pm_getPaymasterData', [fresh, ENTRY_POINT_07, chainIdHex, {}])).result,
    ).toBeDefined()
  })

  test('a sponsorship deletes old counts in the background, once per UTC day', async () => {
    const now = Date.UTC(2030, 0, 10, 12)
    const paymaster = createPaymasterRpc({
      db: t.db,
      config: paymasterConfig,
      upstreams: { [CHAIN]: devnet.rpcUrl },
      now: () => now,
    })
    const project = (await getProject(t.db, PROJECT_ID))!
    const methods = paymaster.methods({ chain: CHAIN, project })
    const old = '0x00000000000000000000000000000000000000a1'
    const takeOld = (daysBack: number) =>
      takeSponsorship(t.db, {
        projectId: PROJECT_ID,
        sender: old,
        dailyCap: 20,
        projectDailyCap: 1000,
        now: now - daysBack * 86_400_000,
      })
    await takeOld(1)
    await takeOld(3)
    const op = await userOperation()
    await methods.pm_getPaymasterData!([op, ENTRY_POINT_07, chainIdHex, {}])
    await vi.waitFor(async () =>
      expect(
        await sponsoredToday(t.db, {
          projectId: PROJECT_ID,
          sender: old,
          now: now - 3 * 86_400_000,
        }),
      ).toBe(0),
    )
    expect(
      await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: old, now: now - 86_400_000 }),
    ).toBe(1)
    expect(await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: op.sender!, now })).toBe(1)
    // The same day again: no second run.
    await takeOld(3)
    await methods.pm_getPaymasterData!([op, ENTRY_POINT_07, chainIdHex, {}])
    await new Promise((done) => setTimeout(done, 100))
    expect(
      await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: old, now: now - 3 * 86_400_000 }),
    ).toBe(1)
  })

  test('invalid params are refused with -32602 and count nothing', async () => {
    const op = await userOperation()
    const { callGasLimit: _, ...noGas } = op
    const cases: [unknown[], RegExp][] = [
      [[op, '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789', chainIdHex], /^Unsupported entry point/],
      [[op, ENTRY_POINT_07, '0x1'], /chainId 0x1 is not this request's chain \(eip155:31337\)/],
      [
        [{ ...op, sender: 'bob' }, ENTRY_POINT_07, chainIdHex],
        /userOperation\.sender must be an address/,
      ],
      [[noGas, ENTRY_POINT_07, chainIdHex], /needs the user operation's final callGasLimit/],
      [[op], /expected \[userOperation, entryPoint, chainId, context\]/],
      [
        [{ ...op, callGasLimit: numberToHex(20_000_000n) }, ENTRY_POINT_07, chainIdHex],
        /userOperation\.callGasLimit 20000000 is over what the paymaster sponsors \(3000000\)/,
      ],
      [
        [{ ...op, preVerificationGas: numberToHex(9_400_000n) }, ENTRY_POINT_07, chainIdHex],
        /userOperation\.preVerificationGas 9400000 is over what the paymaster sponsors \(\d+ for this operation's size\)/,
      ],
      [
        [{ ...op, nonce: numberToHex(1n) }, ENTRY_POINT_07, chainIdHex],
        /userOperation\.nonce is not the account's next one in its lane \(0x0\)/,
      ],
      [
        [{ ...op, nonce: numberToHex(5n << 64n) }, ENTRY_POINT_07, chainIdHex],
        /userOperation\.nonce is in the lane of no active session key of this account/,
      ],
    ]
    for (const [params, message] of cases) {
      const { error } = await rpc('pm_getPaymasterData', params)
      expect(error?.code, String(message)).toBe(-32602)
      expect(error?.message).toMatch(message)
    }
    expect(await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: op.sender! })).toBe(0)
  })

  test('a chain without a paymaster: not available', async () => {
    const response = await t.post('/v1?chainId=eip155:31338', {
      jsonrpc: '2.0',
      id: 7,
      method: 'pm_getPaymasterStubData',
      params: [await userOperation(false), ENTRY_POINT_07, numberToHex(31338), {}],
    })
    // 31338's default upstream is not running here: the paymaster answers before any call.
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32001, message: 'Gas sponsorship is not available on this network' },
    })
  })
})
