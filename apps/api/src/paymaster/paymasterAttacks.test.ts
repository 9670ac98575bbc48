/**
 * Issue 25, findings 1 and 6: the paymaster attacked through the API's RPC proxy, on a real anvil
 * with the devnet's EntryPoint v0.7 and VerifyingPaymaster (1,000 ETH deposited) and a real alto.
 * An attacker lands what the paymaster signed itself, with `EntryPoint.handleOps` from its own
 * key and its own beneficiary, as the reviewer did.
 */
import { type StartBundlerReturnType, startBundler } from '@porthole/bundler'
import {
  devnetChain,
  type StartDevnetReturnType,
  startDevnet,
  toSimpleAccount,
} from '@porthole/devnet'
import { DEVNET_AA, DEVNET_TOKENS, ENTRY_POINT_07 } from '@porthole/shared/devnet'
import {
  portholeSessionsAbi,
  SESSION_KIND,
  simpleAccountAbi,
  type ToSimpleAccountReturnType,
} from '@porthole/shared/simpleAccount'
import {
  type Address,
  createPublicClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  formatEther,
  type Hex,
  http,
  numberToHex,
  type PrivateKeyAccount,
  parseEther,
  parseGwei,
  toFunctionSelector,
} from 'viem'
import { createBundlerClient, entryPoint07Abi } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  addProjectUser,
  askAndLand as attack,
  type BareOperation,
  mostExpensiveOperation,
  rpcOperation,
} from '../../test/paymasterAttacker.js'
import { createTestApp, PROJECT_ID, type TestApp } from '../../test/testApp.js'
import { projectSponsoredToday, setSponsorshipRules, sponsoredToday } from './sponsorship.js'

const CHAIN = 'eip155:31337'
const chainIdHex = numberToHex(31337)
/** The most one sponsored operation may cost the paymaster's deposit (the API's default). */
const PER_OPERATION_BUDGET = parseEther('0.01')

type RpcAnswer = { result?: unknown; error?: { code: number; message: string; data?: unknown } }

let devnet: StartDevnetReturnType
let bundler: StartBundlerReturnType
let t: TestApp

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, chainId: 31337, silent: true })
  bundler = await startBundler({ port: 0, rpcUrl: devnet.rpcUrl, chainId: 31337, silent: true })
  t = await createTestApp({
    upstreams: { [CHAIN]: devnet.rpcUrl },
    bundlers: { [CHAIN]: bundler.url },
  })
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

async function rpc(method: string, params: unknown[]): Promise<RpcAnswer> {
  const response = await t.post(`/v1?chainId=${CHAIN}`, { jsonrpc: '2.0', id: 1, method, params })
  expect(response.status).toBe(200)
  return response.json()
}

/** A viem transport over the API's proxy (as a wallet, or anyone, calls it). */
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
/** The chain itself, for what an attacker does outside the API. */
const chain = () => createPublicClient({ transport: http(devnet.rpcUrl), pollingInterval: 50 })

const deposit = () =>
  chain().readContract({
    address: ENTRY_POINT_07,
    abi: entryPoint07Abi,
    functionName: 'balanceOf',
    args: [DEVNET_AA.paymaster],
  })

/** A user of the project: its wallet key is the owner of its smart account. */
async function projectUser(): Promise<{
  owner: PrivateKeyAccount
  account: ToSimpleAccountReturnType
}> {
  const owner = privateKeyToAccount(generatePrivateKey())
  await addProjectUser(t.db, PROJECT_ID, owner.address)
  return { owner, account: await toSimpleAccount({ client, owner }) }
}

/** Someone with no login: a fresh key and its smart account. */
async function stranger(): Promise<{
  owner: PrivateKeyAccount
  account: ToSimpleAccountReturnType
}> {
  const owner = privateKeyToAccount(generatePrivateKey())
  return { owner, account: await toSimpleAccount({ client, owner }) }
}

/** A bundler client as the wallet makes it: its fees are the bundler's own price (alto's). */
const bundlerOf = (account: ToSimpleAccountReturnType) =>
  createBundlerClient({
    account,
    client,
    transport: proxy,
    paymaster: true,
    pollingInterval: 50,
    userOperation: {
      async estimateFeesPerGas() {
        const { result } = await rpc('pimlico_getUserOperationGasPrice', [])
        const { standard } = result as {
          standard: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex }
        }
        return {
          maxFeePerGas: BigInt(standard.maxFeePerGas),
          maxPriorityFeePerGas: BigInt(standard.maxPriorityFeePerGas),
        }
      },
    },
  })

/** A sponsored operation sent the wallet's way (stub, estimate, final data, bundler). */
async function sendSponsored(
  account: ToSimpleAccountReturnType,
  calls: { to: Address; value?: bigint; data?: Hex }[],
) {
  const bundlerClient = bundlerOf(account)
  const hash = await bundlerClient.sendUserOperation({ calls })
  return bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
}

/**
 * Asks `pm_getPaymasterData` for `op`; when it signs, the account's owner signs the operation
 * and the attacker lands it with `handleOps` from its own key, as its own beneficiary.
 */
async function askAndLand(account: ToSimpleAccountReturnType, op: BareOperation) {
  const outcome = await attack({ proxy: rpc, rpcUrl: devnet.rpcUrl, account, op })
  if (outcome.landed)
    console.info(
      `handleOps by the attacker: deposit −${formatEther(outcome.landed.drop)} ETH, attacker ${outcome.landed.gain >= 0n ? '+' : ''}${formatEther(outcome.landed.gain)} ETH`,
    )
  return outcome
}

/** The reviewer's operation: fees of deposit / 10 M per gas, preVerificationGas 9.4 M. */
async function reviewersOperation(account: ToSimpleAccountReturnType) {
  const { factory, factoryData } = await account.getFactoryArgs()
  const deployed = !!(await chain().getCode({ address: account.address }))
  const price = (await deposit()) / 10_000_000n
  return {
    sender: account.address,
    nonce: await account.getNonce(),
    ...(deployed ? {} : { factory, factoryData }),
    callData: await account.encodeCalls([{ to: account.address, value: 0n }]),
    callGasLimit: 100_000n,
    verificationGasLimit: 399_999n,
    preVerificationGas: 9_400_000n,
    maxFeePerGas: price,
    maxPriorityFeePerGas: price,
    paymasterVerificationGasLimit: 100_000n,
    paymasterPostOpGasLimit: 1n,
  }
}

describe('finding 1: one request drains the paymaster', () => {
  test("the reviewer's drain: a stranger with a fresh key and the project id moves at most the per-operation budget", async () => {
    const { account } = await stranger()
    const { refused, landed } = await askAndLand(account, await reviewersOperation(account))
    expect(landed?.drop ?? 0n).toBeLessThanOrEqual(PER_OPERATION_BUDGET)
    expect(refused?.code).toBeDefined()
    // With ordinary gas and fees: still not its account to sponsor.
    const ordinary = await askAndLand(account, {
      ...(await reviewersOperation(account)),
      preVerificationGas: 60_000n,
      maxFeePerGas: parseGwei('1'),
      maxPriorityFeePerGas: parseGwei('1'),
    })
    expect(ordinary.landed).toBeUndefined()
    expect(ordinary.refused).toMatchObject({ code: -32004 })
  })

  test("a project's own user asking for the reviewer's fees and gas gets no such sponsorship", async () => {
    const { account } = await projectUser()
    await sendSponsored(account, [{ to: account.address, value: 0n }])
    const { refused, landed } = await askAndLand(account, await reviewersOperation(account))
    expect(landed?.drop ?? 0n).toBeLessThanOrEqual(PER_OPERATION_BUDGET)
    expect(refused?.code).toBeDefined()
    // Fees alone, with ordinary gas: still refused.
    const fees = await askAndLand(account, {
      ...(await reviewersOperation(account)),
      preVerificationGas: 60_000n,
    })
    expect(fees.landed?.drop ?? 0n).toBeLessThanOrEqual(PER_OPERATION_BUDGET)
    expect(fees.refused).toMatchObject({ code: -32005 })
  })
})

describe('the most a sponsorship can cost', () => {
  test("the most expensive sponsorship a project's user can get costs the deposit at most the per-operation budget", async () => {
    const { account } = await projectUser()
    const op = await mostExpensiveOperation({ proxy: rpc, rpcUrl: devnet.rpcUrl, account })
    const { refused, landed } = await askAndLand(account, op)
    expect(refused).toBeUndefined()
    expect(landed!.maxCharge).toBeLessThanOrEqual(PER_OPERATION_BUDGET)
    expect(landed!.drop).toBeGreaterThan(0n)
    expect(landed!.drop).toBeLessThanOrEqual(PER_OPERATION_BUDGET)
    expect(landed!.gain).toBeLessThanOrEqual(landed!.drop)
  })
})

describe('finding 6: sponsorship burned by strangers, not bound to the project', () => {
  test("20 calls by a stranger naming a victim's account do not use up the victim's daily allowance", async () => {
    const victim = await projectUser()
    await sendSponsored(victim.account, [{ to: victim.account.address, value: 0n }])
    const thief = await stranger()
    const fees = { maxFeePerGas: parseGwei('1'), maxPriorityFeePerGas: parseGwei('0.5') }
    const nonce = await victim.account.getNonce()
    const answers: RpcAnswer[] = []
    for (let i = 0; i < 20; i++)
      answers.push(
        await rpc('pm_getPaymasterData', [
          rpcOperation({
            sender: victim.account.address,
            // The victim's next nonce, later ones, and other nonce lanes.
            nonce: i < 10 ? nonce : i < 15 ? nonce + BigInt(i) : (BigInt(i) << 64n) | 0n,
            callData: await thief.account.encodeCalls([{ to: thief.owner.address, value: 0n }]),
            callGasLimit: 50_000n,
            verificationGasLimit: 100_000n,
            preVerificationGas: 55_000n,
            ...fees,
          }),
          ENTRY_POINT_07,
          chainIdHex,
          {},
        ]),
      )
    // The next nonce: one reservation, asked again and again (the thief cannot sign for it).
    // Later nonces and lanes of no session: refused.
    expect(answers.slice(0, 10).every((answer) => answer.result)).toBe(true)
    for (const answer of answers.slice(10)) expect(answer.error?.code).toBe(-32602)
    expect(
      await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: victim.account.address }),
    ).toBe(2)
    // The victim's own next operation is sponsored and lands.
    const receipt = await sendSponsored(victim.account, [{ to: victim.account.address, value: 0n }])
    expect(receipt).toMatchObject({ success: true, paymaster: DEVNET_AA.paymaster })
    expect(await chain().getBalance({ address: victim.account.address })).toBe(0n)
  })

  test("accounts made up around a user's key are not the user's: another salt, a factory, a contract claiming the owner", async () => {
    const { owner } = await projectUser()
    const fees = { maxFeePerGas: parseGwei('1'), maxPriorityFeePerGas: parseGwei('0.5') }
    const gas = {
      callGasLimit: 50_000n,
      verificationGasLimit: 400_000n,
      preVerificationGas: 60_000n,
    }
    const ask = async (op: BareOperation) =>
      (await rpc('pm_getPaymasterData', [rpcOperation(op), ENTRY_POINT_07, chainIdHex, {}])).error
    const saltOne = await toSimpleAccount({ client, owner, salt: 1n })
    const { factory, factoryData } = await saltOne.getFactoryArgs()
    const callData = await saltOne.encodeCalls([{ to: owner.address, value: 0n }])
    expect(
      await ask({
        sender: saltOne.address,
        nonce: 0n,
        factory,
        factoryData,
        callData,
        ...gas,
        ...fees,
      }),
    ).toMatchObject({ code: -32004 })
    // The user's own salt-0 address, deployed by another factory (here: the factory data of
    // salt 0 given with the paymaster's address as the factory).
    const own = await toSimpleAccount({ client, owner })
    const ownArgs = await own.getFactoryArgs()
    expect(
      await ask({
        sender: own.address,
        nonce: 0n,
        factory: DEVNET_AA.paymaster,
        factoryData: ownArgs.factoryData,
        callData,
        ...gas,
        ...fees,
      }),
    ).toMatchObject({ code: -32004 })
    // A contract whose owner() answers the user's address (it answers that to any call).
    const impostor = privateKeyToAccount(generatePrivateKey()).address
    await chain().request({
      method: 'anvil_setCode' as never,
      params: [impostor, `0x73${owner.address.slice(2)}60005260206000f3`] as never,
    })
    expect(
      await chain().readContract({
        address: impostor,
        abi: simpleAccountAbi,
        functionName: 'owner',
      }),
    ).toBe(owner.address)
    expect(await ask({ sender: impostor, nonce: 0n, callData, ...gas, ...fees })).toMatchObject({
      code: -32004,
    })
  })

  test("random senders get no sponsorship and leave the project's daily cap untouched", async () => {
    const before = await projectSponsoredToday(t.db, { projectId: PROJECT_ID })
    await setSponsorshipRules(t.db, { projectId: PROJECT_ID, projectDailyCap: before + 5 })
    const answers: RpcAnswer[] = []
    for (let i = 0; i < 10; i++) {
      const { account } = await stranger()
      const { factory, factoryData } = await account.getFactoryArgs()
      answers.push(
        await rpc('pm_getPaymasterData', [
          rpcOperation({
            sender: account.address,
            nonce: 0n,
            factory,
            factoryData,
            callData: await account.encodeCalls([{ to: account.address, value: 0n }]),
            callGasLimit: 50_000n,
            verificationGasLimit: 400_000n,
            preVerificationGas: 60_000n,
            maxFeePerGas: parseGwei('1'),
            maxPriorityFeePerGas: parseGwei('0.5'),
          }),
          ENTRY_POINT_07,
          chainIdHex,
          {},
        ]),
      )
    }
    expect(await projectSponsoredToday(t.db, { projectId: PROJECT_ID })).toBe(before)
    for (const answer of answers)
      expect(answer.error).toMatchObject({
        code: -32004,
        message: "Gas sponsorship is only for the smart accounts of this project's users",
      })
    // An account made up by naming a user as its owner with another salt is not the user's.
    // The project's own user still gets sponsored.
    const { account } = await projectUser()
    const receipt = await sendSponsored(account, [{ to: account.address, value: 0n }])
    expect(receipt.success).toBe(true)
  })

  test('a user at the daily cap can still revoke a session (sponsored), and nothing else', async () => {
    const { account } = await projectUser()
    const key = privateKeyToAccount(generatePrivateKey()).address
    const [pUSD] = DEVNET_TOKENS
    const validUntil = Math.floor(Date.now() / 1000) + 3600
    const grant = await sendSponsored(account, [
      {
        to: account.address,
        data: encodeFunctionData({
          abi: portholeSessionsAbi,
          functionName: 'grantSession',
          args: [
            key,
            pUSD!.address,
            [toFunctionSelector('transfer(address,uint256)')],
            key,
            1_000_000n,
            0,
            validUntil,
            SESSION_KIND.erc20,
            DEVNET_AA.paymaster,
          ],
        }),
      },
    ])
    expect(grant.success).toBe(true)
    const used = await sponsoredToday(t.db, { projectId: PROJECT_ID, sender: account.address })
    await setSponsorshipRules(t.db, { projectId: PROJECT_ID, dailyCap: used })
    // At the cap: another call is refused…
    await expect(
      sendSponsored(account, [
        {
          to: pUSD!.address,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [key, 0n] }),
        },
      ]),
    ).rejects.toThrow(/Daily sponsorship limit reached for this account/)
    // …the revocation is sponsored and lands.
    const revoke = await sendSponsored(account, [
      {
        to: account.address,
        data: encodeFunctionData({
          abi: portholeSessionsAbi,
          functionName: 'revokeSession',
          args: [key],
        }),
      },
    ])
    expect(revoke).toMatchObject({ success: true, paymaster: DEVNET_AA.paymaster })
    const session = await chain().readContract({
      address: account.address,
      abi: portholeSessionsAbi,
      functionName: 'sessions',
      args: [key],
    })
    expect(session[6]).toBe(false)
    expect(await chain().getBalance({ address: account.address })).toBe(0n)
  })
})
