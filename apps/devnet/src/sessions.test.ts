/**
 * Session keys of `PortholeSimpleAccount` on a real anvil: the owner grants a key a session by
 * its own user operation, the key's operations go through the real EntryPoint v0.7 `handleOps`
 * (sent from a dev key as a bundler sends it, sponsored by the devnet's VerifyingPaymaster), and
 * every operation outside the session is refused by the account's validation.
 */
import { DEVNET_AA, ENTRY_POINT_07, PAYMASTER_SIGNER } from '@porthole/shared/devnet'
import {
  encodeSessionSignature,
  portholeSessionsAbi,
  SESSION_KIND,
  SESSION_MAGIC,
  sessionNonceKey,
  sessionStubSignature,
  simpleAccountReplaySafeTypedData,
  type ToSimpleAccountReturnType,
  toSimpleAccount,
} from '@porthole/shared/simpleAccount'
import {
  type Address,
  type BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  hashMessage,
  http,
  maxUint256,
  type PrivateKeyAccount,
  parseAbi,
  parseEther,
  parseEventLogs,
  parseUnits,
  toFunctionSelector,
  toHex,
  zeroAddress,
} from 'viem'
import { entryPoint07Abi, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import TestERC721 from '../artifacts/TestERC721.json' with { type: 'json' }
import { deployAccountAbstraction } from './aa.ts'
import { testErc20Abi } from './abi/erc20.ts'
import { testErc721Abi } from './abi/erc721.ts'
import { portholeSimpleAccountAbi } from './abi/portholeSimpleAccount.ts'
import { DEPLOYER } from './accounts.ts'
import { type StartAnvilReturnType, startAnvil } from './anvil.ts'
import { deployTestTokens } from './deploy.ts'
import {
  deployVerifyingPaymaster,
  devnetClient,
  handleOps,
  paymasterFields,
  simulateHandleOps,
  type UserOperationCall,
  userOperationOf,
} from './testing/userOperations.ts'

const SELECTOR = {
  transfer: toFunctionSelector('transfer(address,uint256)'),
  approve: toFunctionSelector('approve(address,uint256)'),
  transferFrom: toFunctionSelector('transferFrom(address,address,uint256)'),
} as const

const paymasterSigner = privateKeyToAccount(PAYMASTER_SIGNER.privateKey)
const pusd = (amount: string) => parseUnits(amount, 6)
const randomAddress = () => privateKeyToAccount(generatePrivateKey()).address
const transfer = (to: Address, amount: bigint) =>
  encodeFunctionData({ abi: testErc20Abi, functionName: 'transfer', args: [to, amount] })
const approve = (spender: Address, amount: bigint) =>
  encodeFunctionData({ abi: testErc20Abi, functionName: 'approve', args: [spender, amount] })

let anvil: StartAnvilReturnType
/** pUSD (6 decimals), the sessions' target, and PRT, another contract. */
let token: { pusd: Address; prt: Address }

beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
  await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
  const [pUSD, PRT] = await deployTestTokens({ rpcUrl: anvil.rpcUrl, recipients: [] })
  token = { pusd: pUSD!.address, prt: PRT!.address }
}, 60_000)
afterAll(() => anvil?.stop())

const client = () => devnetClient(anvil.rpcUrl)

async function chainNow(): Promise<number> {
  return Number((await client().getBlock()).timestamp)
}

async function balanceOf(tokenAddress: Address, holder: Address): Promise<bigint> {
  return client().readContract({
    address: tokenAddress,
    abi: testErc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  })
}

async function mint(tokenAddress: Address, to: Address, amount: bigint): Promise<void> {
  const { request } = await client().simulateContract({
    account: privateKeyToAccount(DEPLOYER.privateKey),
    address: tokenAddress,
    abi: testErc20Abi,
    functionName: 'mint',
    args: [to, amount],
  })
  const hash = await createWalletClient({ transport: http(anvil.rpcUrl) }).writeContract({
    ...request,
    chain: null,
  })
  expect((await client().waitForTransactionReceipt({ hash })).status).toBe('success')
}

/** Terms of a session as `grantSession` takes them. */
type Terms = {
  target: Address
  selectors: Hex[]
  recipient: Address
  spendLimit: bigint
  validAfter: number
  validUntil: number
  /** What the target is (how its calls are metered); default ERC-20. */
  kind?: number
  /** The only paymaster of the key's operations; default the devnet's. */
  paymaster?: Address
}

/** `grantSession`'s arguments: the ERC-20 kind and the devnet's paymaster unless `terms` say. */
const grantArgs = (key: Address, terms: Terms) =>
  [
    key,
    terms.target,
    terms.selectors,
    terms.recipient,
    terms.spendLimit,
    terms.validAfter,
    terms.validUntil,
    terms.kind ?? SESSION_KIND.erc20,
    terms.paymaster ?? DEVNET_AA.paymaster,
  ] as const

const grantData = (key: Address, terms: Terms) =>
  encodeFunctionData({
    abi: portholeSessionsAbi,
    functionName: 'grantSession',
    args: grantArgs(key, terms),
  })

/** `grantSession(key, terms)` on `account` called by `from`, simulated (`eth_call`). */
const simulateGrant = (account: Address, from: Address, key: Address, terms: Terms) =>
  client().simulateContract({
    account: from,
    address: account,
    abi: portholeSessionsAbi,
    functionName: 'grantSession',
    args: grantArgs(key, terms),
  })

/** An operation of the owner (nonce lane 0) running `calls`, sponsored, signed. */
async function ownerOperation(owner: PrivateKeyAccount, calls: readonly UserOperationCall[]) {
  const { account, userOp: base } = await userOperationOf({ rpcUrl: anvil.rpcUrl, owner, calls })
  const userOp = {
    ...base,
    ...(await paymasterFields({
      rpcUrl: anvil.rpcUrl,
      userOp: base,
      signer: paymasterSigner,
      validUntil: (await chainNow()) + 3600,
    })),
  }
  return { ...userOp, signature: await account.signUserOperation(userOp) }
}

/** A deployed account holding 100 pUSD, whose owner's own user operation granted `key` a session. */
type SessionSetup = {
  owner: PrivateKeyAccount
  account: ToSimpleAccountReturnType
  key: PrivateKeyAccount
  terms: Terms
  /** The receipt of the owner's granting operation. */
  granted: Awaited<ReturnType<typeof handleOps>>
}

async function accountWithSession(overrides: Partial<Terms> = {}): Promise<SessionSetup> {
  const owner = privateKeyToAccount(generatePrivateKey())
  const key = privateKeyToAccount(generatePrivateKey())
  const account = await toSimpleAccount({ client: client(), owner })
  const terms: Terms = {
    target: token.pusd,
    selectors: [SELECTOR.transfer],
    recipient: randomAddress(),
    spendLimit: pusd('10'),
    validAfter: 0,
    validUntil: (await chainNow()) + 86_400,
    ...overrides,
  }
  await mint(token.pusd, account.address, pusd('100'))
  // The owner's user operation deploys the account and calls execute(account, 0, grantSession…).
  const op = await ownerOperation(owner, [
    { to: account.address, data: grantData(key.address, terms) },
  ])
  const granted = await handleOps(anvil.rpcUrl, op)
  expect(granted.event.success).toBe(true)
  return { owner, account, key, terms, granted }
}

/** Options of {@link sessionOperation}. */
type SessionOperationParameters = {
  account: Address
  key: PrivateKeyAccount
  /** Encoded as `execute` (one) or `executeBatch` (several); or `callData` as is. */
  calls?: readonly UserOperationCall[]
  callData?: Hex
  /** Default true: the VerifyingPaymaster sponsors it. */
  sponsored?: boolean
  /** Default the key's own lane. */
  nonceKey?: bigint
  /** Who signs the userOpHash; default the key. */
  signer?: PrivateKeyAccount
  /** Another VerifyingPaymaster and its signer; default the devnet's. */
  paymaster?: { address: Address; signer: PrivateKeyAccount }
}

/** A user operation of `key` on `account`, signed as a session operation. */
async function sessionOperation(parameters: SessionOperationParameters) {
  const { account, key, sponsored = true, signer = key } = parameters
  const c = client()
  const nonceKey = parameters.nonceKey ?? sessionNonceKey(key.address)
  const helper = await toSimpleAccount({ client: c, owner: key, address: account })
  const [nonce, fees] = await Promise.all([
    c.readContract({
      address: ENTRY_POINT_07,
      abi: entryPoint07Abi,
      functionName: 'getNonce',
      args: [account, nonceKey],
    }),
    c.estimateFeesPerGas(),
  ])
  let userOp: UserOperation<'0.7'> = {
    sender: account,
    nonce,
    callData: parameters.callData ?? (await helper.encodeCalls(parameters.calls ?? [])),
    callGasLimit: 200_000n,
    verificationGasLimit: 500_000n,
    preVerificationGas: 60_000n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    signature: '0x',
  }
  if (sponsored)
    userOp = {
      ...userOp,
      ...(await paymasterFields({
        rpcUrl: anvil.rpcUrl,
        userOp,
        signer: parameters.paymaster?.signer ?? paymasterSigner,
        validUntil: (await chainNow()) + 3600,
        ...(parameters.paymaster ? { paymaster: parameters.paymaster.address } : {}),
      })),
    }
  const userOpHash = getUserOperationHash({
    chainId: 31337,
    entryPointAddress: ENTRY_POINT_07,
    entryPointVersion: '0.7',
    userOperation: userOp,
  })
  const signature = await signer.signMessage({ message: { raw: userOpHash } })
  return { ...userOp, signature: encodeSessionSignature(key.address, signature) }
}

/** The reason the EntryPoint refuses `userOp` with (its `FailedOp`), or null when it passes. */
async function refusal(userOp: UserOperation<'0.7'>): Promise<string | null> {
  try {
    await simulateHandleOps(anvil.rpcUrl, userOp)
    return null
  } catch (error) {
    const reverted = (error as BaseError).walk(
      (e) => e instanceof ContractFunctionRevertedError,
    ) as ContractFunctionRevertedError | null
    if (reverted?.data?.errorName !== 'FailedOp') throw error
    return reverted.data.args?.[1] as string
  }
}

/** The custom error name or require reason `promise` reverts with. */
async function revertOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise
  } catch (error) {
    const reverted = (error as BaseError).walk(
      (e) => e instanceof ContractFunctionRevertedError,
    ) as ContractFunctionRevertedError | null
    if (!reverted) throw error
    // A require string arrives as Error(string): its reason; a custom error by its name.
    return reverted.data?.errorName === 'Error' ? reverted.reason : reverted.data?.errorName
  }
  return undefined
}

async function sessionOf(account: Address, key: Address) {
  const [target, recipient, spendLimit, spent, validAfter, validUntil, active, kind, paymaster] =
    await client().readContract({
      address: account,
      abi: portholeSessionsAbi,
      functionName: 'sessions',
      args: [key],
    })
  return { target, recipient, spendLimit, spent, validAfter, validUntil, active, kind, paymaster }
}

async function selectorsOf(account: Address, key: Address) {
  return client().readContract({
    address: account,
    abi: portholeSessionsAbi,
    functionName: 'sessionSelectors',
    args: [key],
  })
}

test('the shared ABI, magic and stub are the contract’s', async () => {
  // Every entry of portholeSessionsAbi is in the compiled account's ABI (names and types).
  const strip = (entry: object): unknown =>
    JSON.parse(JSON.stringify(entry, (k, v) => (k === 'internalType' ? undefined : v)))
  const compiled = portholeSimpleAccountAbi.map(strip)
  for (const entry of portholeSessionsAbi) expect(compiled).toContainEqual(strip(entry))
  const { account } = await accountWithSession()
  expect(
    await client().readContract({
      address: account.address,
      abi: portholeSessionsAbi,
      functionName: 'SESSION_MAGIC',
    }),
  ).toBe(SESSION_MAGIC)
  const key = randomAddress()
  expect(sessionStubSignature(key)).toMatch(/^0x[0-9a-f]{178}$/)
})

describe('a session key', () => {
  test('is granted by the owner’s own user operation: getters and event show the terms', async () => {
    const { account, key, terms, granted } = await accountWithSession()
    expect(await sessionOf(account.address, key.address)).toEqual({
      target: terms.target,
      recipient: terms.recipient,
      spendLimit: pusd('10'),
      spent: 0n,
      validAfter: 0,
      validUntil: terms.validUntil,
      active: true,
      kind: SESSION_KIND.erc20,
      paymaster: DEVNET_AA.paymaster,
    })
    expect(await selectorsOf(account.address, key.address)).toEqual([SELECTOR.transfer])
    const [event] = parseEventLogs({
      abi: portholeSessionsAbi,
      logs: granted.receipt.logs,
      eventName: 'SessionGranted',
    })
    expect(event?.address).toBe(account.address.toLowerCase())
    expect(event?.args).toEqual({
      key: key.address,
      target: terms.target,
      recipient: terms.recipient,
      spendLimit: pusd('10'),
      validAfter: 0,
      validUntil: terms.validUntil,
      selectors: [SELECTOR.transfer],
      kind: SESSION_KIND.erc20,
      paymaster: DEVNET_AA.paymaster,
    })
  })

  test('sends 2 + 2 pUSD in its own nonce lane; more than what is left is refused, exactly what is left passes', async () => {
    const { account, key, terms } = await accountWithSession()
    const ownerNonce = await account.getNonce()
    for (const n of [1n, 2n]) {
      const op = await sessionOperation({
        account: account.address,
        key,
        calls: [{ to: token.pusd, data: transfer(terms.recipient, pusd('2')) }],
      })
      expect(op.nonce).toBe((sessionNonceKey(key.address) << 64n) + n - 1n)
      const { event } = await handleOps(anvil.rpcUrl, op)
      expect(event).toMatchObject({ success: true, paymaster: DEVNET_AA.paymaster })
    }
    expect(await balanceOf(token.pusd, terms.recipient)).toBe(pusd('4'))
    expect((await sessionOf(account.address, key.address)).spent).toBe(pusd('4'))
    // The owner's lane did not move.
    expect(await account.getNonce()).toBe(ownerNonce)

    const over = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.pusd, data: transfer(terms.recipient, pusd('6') + 1n) }],
    })
    expect(await refusal(over)).toBe('AA24 signature error')
    const rest = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.pusd, data: transfer(terms.recipient, pusd('6')) }],
    })
    expect((await handleOps(anvil.rpcUrl, rest)).event.success).toBe(true)
    expect(await balanceOf(token.pusd, terms.recipient)).toBe(pusd('10'))
    expect((await sessionOf(account.address, key.address)).spent).toBe(pusd('10'))
    const one = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.pusd, data: transfer(terms.recipient, 1n) }],
    })
    expect(await refusal(one)).toBe('AA24 signature error')
  })

  test('counts every call of a batch: two transfers that each fit but not together are refused', async () => {
    const { account, key, terms } = await accountWithSession()
    const batch = (a: string, b: string) =>
      sessionOperation({
        account: account.address,
        key,
        calls: [
          { to: token.pusd, data: transfer(terms.recipient, pusd(a)) },
          { to: token.pusd, data: transfer(terms.recipient, pusd(b)) },
        ],
      })
    expect(await refusal(await batch('6', '5'))).toBe('AA24 signature error')
    // An amount that would overflow the total is refused too, without reverting.
    const overflow = await sessionOperation({
      account: account.address,
      key,
      calls: [
        { to: token.pusd, data: transfer(terms.recipient, 1n) },
        { to: token.pusd, data: transfer(terms.recipient, maxUint256) },
      ],
    })
    expect(await refusal(overflow)).toBe('AA24 signature error')
    expect((await handleOps(anvil.rpcUrl, await batch('3', '3'))).event.success).toBe(true)
    expect(await balanceOf(token.pusd, terms.recipient)).toBe(pusd('6'))
    expect((await sessionOf(account.address, key.address)).spent).toBe(pusd('6'))
  })

  test('is refused a transfer to another recipient', async () => {
    const { account, key } = await accountWithSession()
    const op = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.pusd, data: transfer(randomAddress(), pusd('1')) }],
    })
    expect(await refusal(op)).toBe('AA24 signature error')
  })

  test('is refused a selector it was not granted', async () => {
    const { account, key, terms } = await accountWithSession()
    const op = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.pusd, data: approve(terms.recipient, pusd('1')) }],
    })
    expect(await refusal(op)).toBe('AA24 signature error')
  })

  test('is refused a call carrying ETH', async () => {
    const { account, key, terms } = await accountWithSession()
    await client().request({
      method: 'anvil_setBalance' as never,
      params: [account.address, toHex(parseEther('1'))] as never,
    })
    const op = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.pusd, value: 1n, data: transfer(terms.recipient, pusd('1')) }],
    })
    expect(await refusal(op)).toBe('AA24 signature error')
  })

  test('is refused a call to another contract', async () => {
    const { account, key, terms } = await accountWithSession()
    await mint(token.prt, account.address, parseEther('5'))
    const op = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.prt, data: transfer(terms.recipient, 1n) }],
    })
    expect(await refusal(op)).toBe('AA24 signature error')
  })

  test('is refused a batch that also calls the account itself', async () => {
    const { account, key, terms } = await accountWithSession()
    const op = await sessionOperation({
      account: account.address,
      key,
      calls: [
        { to: token.pusd, data: transfer(terms.recipient, pusd('1')) },
        {
          to: account.address,
          data: grantData(key.address, { ...terms, spendLimit: maxUint256 }),
        },
      ],
    })
    expect(op.callData.slice(0, 10)).toBe('0x47e1da2a') // executeBatch(address[],uint256[],bytes[])
    expect(await refusal(op)).toBe('AA24 signature error')
  })

  test('is refused an operation the paymaster does not pay for, though the account holds ETH', async () => {
    const { account, key, terms } = await accountWithSession()
    await client().request({
      method: 'anvil_setBalance' as never,
      params: [account.address, toHex(parseEther('1'))] as never,
    })
    const op = await sessionOperation({
      account: account.address,
      key,
      sponsored: false,
      calls: [{ to: token.pusd, data: transfer(terms.recipient, pusd('1')) }],
    })
    expect(op.paymaster).toBeUndefined()
    expect(await refusal(op)).toBe('AA24 signature error')
  })

  test('is refused outside its own nonce lane', async () => {
    const { account, key, terms } = await accountWithSession()
    const calls = [{ to: token.pusd, data: transfer(terms.recipient, pusd('1')) }]
    for (const nonceKey of [0n, sessionNonceKey(randomAddress())]) {
      const op = await sessionOperation({ account: account.address, key, calls, nonceKey })
      expect(await refusal(op)).toBe('AA24 signature error')
    }
  })

  test('is refused other account functions and malformed calldata, without reverting', async () => {
    const { account, key, terms } = await accountWithSession()
    const execute = encodeFunctionData({
      abi: portholeSimpleAccountAbi,
      functionName: 'execute',
      args: [token.pusd, 0n, transfer(terms.recipient, pusd('1'))],
    })
    const callDatas: Hex[] = [
      encodeFunctionData({
        abi: portholeSimpleAccountAbi,
        functionName: 'withdrawDepositTo',
        args: [key.address, 1n],
      }),
      '0x',
      '0xb61d27f6',
      // execute with its bytes cut short, and with an offset pointing past the end
      execute.slice(0, execute.length - 64) as Hex,
      `${execute.slice(0, 2 + 8 + 128)}${'f'.repeat(64)}${execute.slice(2 + 8 + 192)}` as Hex,
    ]
    for (const callData of callDatas) {
      const op = await sessionOperation({ account: account.address, key, callData })
      expect(await refusal(op), callData).toBe('AA24 signature error')
    }
  })

  test('is refused when another key signs, and the stub signature fails without reverting', async () => {
    const { owner, account, key, terms } = await accountWithSession()
    const calls = [{ to: token.pusd, data: transfer(terms.recipient, pusd('1')) }]
    const forged = await sessionOperation({
      account: account.address,
      key,
      calls,
      signer: privateKeyToAccount(generatePrivateKey()),
    })
    expect(await refusal(forged)).toBe('AA24 signature error')
    const stub = { ...forged, signature: sessionStubSignature(key.address) }
    expect(await refusal(stub)).toBe('AA24 signature error')
    // The owner's key holds no session: signing as one gets it nowhere.
    const asOwner = await sessionOperation({ account: account.address, key: owner, calls })
    expect(await refusal(asOwner)).toBe('AA24 signature error')
  })

  test('is refused once revoked; its entry is cleared', async () => {
    const { owner, account, key, terms } = await accountWithSession()
    const revoke = await ownerOperation(owner, [
      {
        to: account.address,
        data: encodeFunctionData({
          abi: portholeSessionsAbi,
          functionName: 'revokeSession',
          args: [key.address],
        }),
      },
    ])
    const { receipt } = await handleOps(anvil.rpcUrl, revoke)
    const [event] = parseEventLogs({
      abi: portholeSessionsAbi,
      logs: receipt.logs,
      eventName: 'SessionRevoked',
    })
    expect(event?.args).toEqual({ key: key.address })
    expect(await sessionOf(account.address, key.address)).toMatchObject({
      active: false,
      target: zeroAddress,
      spendLimit: 0n,
    })
    expect(await selectorsOf(account.address, key.address)).toEqual([])
    const op = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.pusd, data: transfer(terms.recipient, pusd('1')) }],
    })
    expect(await refusal(op)).toBe('AA24 signature error')
  })

  test('granted again, gets the new terms only: spent starts over, old selectors are gone', async () => {
    const { owner, account, key, terms } = await accountWithSession()
    const spend = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.pusd, data: transfer(terms.recipient, pusd('4')) }],
    })
    await handleOps(anvil.rpcUrl, spend)
    const regrant = await ownerOperation(owner, [
      {
        to: account.address,
        data: grantData(key.address, {
          ...terms,
          selectors: [SELECTOR.transferFrom, SELECTOR.transferFrom],
          spendLimit: pusd('5'),
        }),
      },
    ])
    await handleOps(anvil.rpcUrl, regrant)
    expect(await selectorsOf(account.address, key.address)).toEqual([SELECTOR.transferFrom])
    expect(await sessionOf(account.address, key.address)).toMatchObject({
      spent: 0n,
      spendLimit: pusd('5'),
      active: true,
    })
    const again = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.pusd, data: transfer(terms.recipient, pusd('1')) }],
    })
    expect(await refusal(again)).toBe('AA24 signature error')
    // Someone who let the account pull 100 pUSD: the key may pull 5 of them, no more.
    const giver = await fundedKey()
    await mint(token.pusd, giver.address, pusd('100'))
    expect(await tryTransaction(giver, token.pusd, approve(account.address, pusd('100')))).toBe(
      true,
    )
    const pull = (amount: bigint) =>
      sessionOperation({
        account: account.address,
        key,
        calls: [
          {
            to: token.pusd,
            data: encodeFunctionData({
              abi: testErc20Abi,
              functionName: 'transferFrom',
              args: [giver.address, terms.recipient, amount],
            }),
          },
        ],
      })
    expect((await handleOps(anvil.rpcUrl, await pull(pusd('5')))).event.success).toBe(true)
    expect(await balanceOf(token.pusd, terms.recipient)).toBe(pusd('9'))
    expect(await refusal(await pull(1n))).toBe('AA24 signature error')
  })

  test('with no recipient set, may send to anyone within the limit; transferFrom counts its `to`', async () => {
    const { account, key } = await accountWithSession({
      recipient: zeroAddress,
      selectors: [SELECTOR.transfer, SELECTOR.transferFrom],
    })
    const someone = randomAddress()
    const op = await sessionOperation({
      account: account.address,
      key,
      calls: [
        { to: token.pusd, data: transfer(someone, pusd('3')) },
        {
          to: token.pusd,
          data: encodeFunctionData({
            abi: testErc20Abi,
            functionName: 'transferFrom',
            args: [randomAddress(), someone, pusd('8')],
          }),
        },
      ],
    })
    expect(await refusal(op)).toBe('AA24 signature error') // 3 + 8 > 10
    const ok = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.pusd, data: transfer(someone, pusd('3')) }],
    })
    expect((await handleOps(anvil.rpcUrl, ok)).event.success).toBe(true)
    expect(await balanceOf(token.pusd, someone)).toBe(pusd('3'))
  })
})

describe('the owner', () => {
  test('still runs any call in its own lane beside a session', async () => {
    const { owner, account, key, terms } = await accountWithSession()
    const elsewhere = randomAddress()
    const op = await ownerOperation(owner, [
      { to: token.pusd, data: transfer(elsewhere, pusd('50')) },
      { to: token.pusd, data: transfer(terms.recipient, pusd('20')) },
    ])
    expect(op.nonce >> 64n).toBe(0n)
    expect((await handleOps(anvil.rpcUrl, op)).event.success).toBe(true)
    expect(await balanceOf(token.pusd, elsewhere)).toBe(pusd('50'))
    expect(await balanceOf(token.pusd, terms.recipient)).toBe(pusd('20'))
    // The session is untouched by the owner's transfers.
    expect((await sessionOf(account.address, key.address)).spent).toBe(0n)
  })

  test('alone grants and revokes: bad terms and other callers revert', async () => {
    const { owner, account, key, terms } = await accountWithSession()
    const grant = (from: Address, k: Address, t: Partial<Terms> = {}) =>
      simulateGrant(account.address, from, k, { ...terms, ...t })
    const other = randomAddress()
    // The owner's own key, directly (as SimpleAccount's onlyOwner allows).
    expect(await revertOf(grant(owner.address, other))).toBeUndefined()
    expect(await revertOf(grant(owner.address, zeroAddress))).toBe('SessionKeyInvalid')
    expect(await revertOf(grant(owner.address, owner.address))).toBe('SessionKeyInvalid')
    for (const target of [zeroAddress, account.address, ENTRY_POINT_07])
      expect(await revertOf(grant(owner.address, other, { target }))).toBe('SessionTargetInvalid')
    expect(await revertOf(grant(owner.address, other, { selectors: [] }))).toBe(
      'SessionSelectorsEmpty',
    )
    expect(await revertOf(grant(owner.address, other, { validAfter: 10, validUntil: 10 }))).toBe(
      'SessionWindowInvalid',
    )
    // Anyone else, including the session key itself.
    for (const from of [randomAddress(), key.address, ENTRY_POINT_07])
      expect(await revertOf(grant(from, other))).toBe('only owner')
    expect(
      await revertOf(
        client().simulateContract({
          account: key.address,
          address: account.address,
          abi: portholeSessionsAbi,
          functionName: 'revokeSession',
          args: [key.address],
        }),
      ),
    ).toBe('only owner')
  })

  test('alone signs for the account (ERC-1271): a session key’s signature is 0xffffffff', async () => {
    const { owner, account, key } = await accountWithSession()
    const hash = hashMessage('Sign in to Porthole')
    const typed = simpleAccountReplaySafeTypedData({
      address: account.address,
      chainId: 31337,
      hash,
    })
    const isValid = (signature: Hex) =>
      client().readContract({
        address: account.address,
        abi: portholeSimpleAccountAbi,
        functionName: 'isValidSignature',
        args: [hash, signature],
      })
    expect(await isValid(await owner.signTypedData(typed))).toBe('0x1626ba7e')
    const keySignature = await key.signTypedData(typed)
    expect(await isValid(keySignature)).toBe('0xffffffff')
    expect(await isValid(encodeSessionSignature(key.address, keySignature))).toBe('0xffffffff')
    expect(
      await isValid(
        encodeSessionSignature(key.address, await key.signMessage({ message: { raw: hash } })),
      ),
    ).toBe('0xffffffff')
  })
})

describe('the session window', () => {
  test('a session not yet valid, and one past validUntil, are refused by the EntryPoint (AA22)', async () => {
    const now = await chainNow()
    const later = await accountWithSession({ validAfter: now + 1000, validUntil: now + 5000 })
    const early = await sessionOperation({
      account: later.account.address,
      key: later.key,
      calls: [{ to: token.pusd, data: transfer(later.terms.recipient, 1n) }],
    })
    expect(await refusal(early)).toBe('AA22 expired or not due')

    const { account, key, terms } = await accountWithSession({ validUntil: now + 600 })
    const op = () =>
      sessionOperation({
        account: account.address,
        key,
        calls: [{ to: token.pusd, data: transfer(terms.recipient, pusd('1')) }],
      })
    expect((await handleOps(anvil.rpcUrl, await op())).event.success).toBe(true)
    await client().request({ method: 'evm_increaseTime' as never, params: [601] as never })
    await client().request({ method: 'evm_mine' as never, params: [] as never })
    expect(await refusal(await op())).toBe('AA22 expired or not due')
  })
})

test('gas: a session operation next to the same owner operation', async () => {
  const { owner, account, key, terms } = await accountWithSession()
  const calls = [{ to: token.pusd, data: transfer(terms.recipient, pusd('2')) }]
  // Warm both lanes and the recipient's balance first, so neither pays a first-time cost.
  await handleOps(anvil.rpcUrl, await ownerOperation(owner, calls))
  await handleOps(anvil.rpcUrl, await sessionOperation({ account: account.address, key, calls }))
  const ownerRun = await handleOps(anvil.rpcUrl, await ownerOperation(owner, calls))
  const sessionRun = await handleOps(
    anvil.rpcUrl,
    await sessionOperation({ account: account.address, key, calls }),
  )
  console.info(
    `handleOps gasUsed: owner ${ownerRun.receipt.gasUsed}, session ${sessionRun.receipt.gasUsed}; ` +
      `actualGasUsed: owner ${ownerRun.event.actualGasUsed}, session ${sessionRun.event.actualGasUsed}`,
  )
  expect(sessionRun.receipt.gasUsed).toBeGreaterThan(ownerRun.receipt.gasUsed)
  expect(sessionRun.receipt.gasUsed - ownerRun.receipt.gasUsed).toBeLessThan(40_000n)
})

/** Deploys an NFT collection (the seed's Porthole Pals contract) minting `counts` NFTs to each holder in turn; the ids each got. */
async function collectionOf(holders: readonly [Address, number][]) {
  const deployer = privateKeyToAccount(DEPLOYER.privateKey)
  const wallet = createWalletClient({ account: deployer, transport: http(anvil.rpcUrl) })
  const deployed = await wallet.deployContract({
    chain: null,
    abi: testErc721Abi,
    bytecode: TestERC721.bytecode as Hex,
    args: ['Porthole Pals', 'PALS', 'http://127.0.0.1/nft/v1/pals/'],
  })
  const address = (await client().waitForTransactionReceipt({ hash: deployed }))
    .contractAddress as Address
  const ids: bigint[][] = []
  let next = 1n
  for (const [holder, count] of holders) {
    const mine: bigint[] = []
    for (let i = 0; i < count; i++) {
      const hash = await wallet.writeContract({
        chain: null,
        address,
        abi: testErc721Abi,
        functionName: 'mint',
        args: [holder],
      })
      await client().waitForTransactionReceipt({ hash })
      mine.push(next++)
    }
    ids.push(mine)
  }
  return { address, ids }
}

const ownerOf = (collection: Address, id: bigint) =>
  client().readContract({
    address: collection,
    abi: testErc721Abi,
    functionName: 'ownerOf',
    args: [id],
  })

/** A key of someone with ETH for gas (a thief acting from its own address). */
async function fundedKey(): Promise<PrivateKeyAccount> {
  const key = privateKeyToAccount(generatePrivateKey())
  await client().request({
    method: 'anvil_setBalance' as never,
    params: [key.address, toHex(parseEther('1'))] as never,
  })
  return key
}

/** Sends `data` to `to` from `from`; false when it reverts (or cannot be estimated). */
async function tryTransaction(from: PrivateKeyAccount, to: Address, data: Hex): Promise<boolean> {
  try {
    const hash = await createWalletClient({
      account: from,
      transport: http(anvil.rpcUrl),
    }).sendTransaction({ chain: null, to, data })
    return (await client().waitForTransactionReceipt({ hash })).status === 'success'
  } catch {
    return false
  }
}

/** Runs `userOp` through handleOps; whether its calls ran (false when refused or reverted). */
async function tryOperation(userOp: Promise<UserOperation<'0.7'>>): Promise<boolean> {
  try {
    return (await handleOps(anvil.rpcUrl, await userOp)).event.success
  } catch {
    return false
  }
}

/** The owner's operation granting `key` `terms` on a new account; whether the grant ran. */
async function tryGrant(
  account: ToSimpleAccountReturnType,
  owner: PrivateKeyAccount,
  key: Address,
  terms: Terms,
) {
  return tryOperation(ownerOperation(owner, [{ to: account.address, data: grantData(key, terms) }]))
}

describe('attacks of issue 25', () => {
  test('finding 7: an allowance made by a session key does not outlive its revoke (1,000 pUSD)', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const key = privateKeyToAccount(generatePrivateKey())
    const thief = await fundedKey()
    const account = await toSimpleAccount({ client: client(), owner })
    await mint(token.pusd, account.address, pusd('1000'))
    const granted = await tryGrant(account, owner, key.address, {
      target: token.pusd,
      selectors: [SELECTOR.transfer, SELECTOR.approve],
      recipient: zeroAddress,
      spendLimit: pusd('1000'),
      validAfter: 0,
      validUntil: (await chainNow()) + 86_400,
      kind: SESSION_KIND.erc20,
    })
    // The key approves the thief while the session is live…
    await tryOperation(
      sessionOperation({
        account: account.address,
        key,
        calls: [{ to: token.pusd, data: approve(thief.address, pusd('1000')) }],
      }),
    )
    // …the owner revokes it…
    await handleOps(
      anvil.rpcUrl,
      await ownerOperation(owner, [
        {
          to: account.address,
          data: encodeFunctionData({
            abi: portholeSessionsAbi,
            functionName: 'revokeSession',
            args: [key.address],
          }),
        },
      ]),
    )
    expect((await sessionOf(account.address, key.address)).active).toBe(false)
    // …and the thief pulls with the allowance.
    await tryTransaction(
      thief,
      token.pusd,
      encodeFunctionData({
        abi: testErc20Abi,
        functionName: 'transferFrom',
        args: [account.address, thief.address, pusd('1000')],
      }),
    )
    expect(await balanceOf(token.pusd, thief.address)).toBe(0n)
    expect(await balanceOf(token.pusd, account.address)).toBe(pusd('1000'))
    // The grant itself was refused: approve is not a session's to give.
    expect(granted).toBe(false)
  })

  test('finding 4: a session granted setApprovalForAll on an NFT collection cannot hand every NFT to a thief', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const key = privateKeyToAccount(generatePrivateKey())
    const thief = await fundedKey()
    const account = await toSimpleAccount({ client: client(), owner })
    const {
      address: pals,
      ids: [ids = []],
    } = await collectionOf([[account.address, 3]])
    const granted = await tryGrant(account, owner, key.address, {
      target: pals,
      selectors: [toFunctionSelector('setApprovalForAll(address,bool)')],
      recipient: zeroAddress,
      spendLimit: 0n,
      validAfter: 0,
      validUntil: (await chainNow()) + 86_400,
      kind: SESSION_KIND.erc721,
    })
    await tryOperation(
      sessionOperation({
        account: account.address,
        key,
        calls: [
          {
            to: pals,
            data: encodeFunctionData({
              abi: testErc721Abi,
              functionName: 'setApprovalForAll',
              args: [thief.address, true],
            }),
          },
        ],
      }),
    )
    for (const id of ids)
      await tryTransaction(
        thief,
        pals,
        encodeFunctionData({
          abi: testErc721Abi,
          functionName: 'transferFrom',
          args: [account.address, thief.address, id],
        }),
      )
    for (const id of ids) expect(await ownerOf(pals, id)).toBe(account.address)
    expect(granted).toBe(false)
  })

  test('finding 4: ERC-721 transferFrom is metered as a count of NFTs (2), whatever their ids', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const key = privateKeyToAccount(generatePrivateKey())
    const receiver = randomAddress()
    const account = await toSimpleAccount({ client: client(), owner })
    // Someone else holds #1…#3; the account #4…#6, ids above the limit of 2.
    const {
      address: pals,
      ids: [, ids = []],
    } = await collectionOf([
      [randomAddress(), 3],
      [account.address, 3],
    ])
    expect(
      await tryGrant(account, owner, key.address, {
        target: pals,
        selectors: [SELECTOR.transferFrom],
        recipient: receiver,
        spendLimit: 2n,
        validAfter: 0,
        validUntil: (await chainNow()) + 86_400,
        kind: SESSION_KIND.erc721,
      }),
    ).toBe(true)
    const send = (id: bigint) =>
      sessionOperation({
        account: account.address,
        key,
        calls: [
          {
            to: pals,
            data: encodeFunctionData({
              abi: testErc721Abi,
              functionName: 'transferFrom',
              args: [account.address, receiver, id],
            }),
          },
        ],
      })
    const [four, five, six] = ids as [bigint, bigint, bigint]
    expect((await handleOps(anvil.rpcUrl, await send(four))).event.success).toBe(true)
    expect((await handleOps(anvil.rpcUrl, await send(five))).event.success).toBe(true)
    expect(await refusal(await send(six))).toBe('AA24 signature error')
    expect(await ownerOf(pals, four)).toBe(receiver)
    expect(await ownerOf(pals, five)).toBe(receiver)
    expect(await ownerOf(pals, six)).toBe(account.address)
    expect((await sessionOf(account.address, key.address)).spent).toBe(2n)
  })

  test('finding 6: a session operation through a paymaster the owner did not choose is refused in validation', async () => {
    const { account, key, terms } = await accountWithSession()
    const otherSigner = privateKeyToAccount(generatePrivateKey())
    const other = await deployVerifyingPaymaster({
      rpcUrl: anvil.rpcUrl,
      signer: otherSigner.address,
    })
    const calls = [{ to: token.pusd, data: transfer(terms.recipient, pusd('1')) }]
    const elsewhere = await sessionOperation({
      account: account.address,
      key,
      calls,
      paymaster: { address: other, signer: otherSigner },
    })
    expect(elsewhere.paymaster).toBe(other)
    expect(await refusal(elsewhere)).toBe('AA24 signature error')
    // The owner's paymaster still carries it.
    const chosen = await sessionOperation({ account: account.address, key, calls })
    expect((await handleOps(anvil.rpcUrl, chosen)).event.success).toBe(true)
    expect(await balanceOf(token.pusd, terms.recipient)).toBe(pusd('1'))
  })
})

/** The known functions whose power outlives a session (the contract's `_outlivesSession`). */
const OUTLIVING = [
  'approve(address,uint256)',
  'increaseAllowance(address,uint256)',
  'setApprovalForAll(address,bool)',
  'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)',
  'permit(address,address,uint256,uint256,bool,uint8,bytes32,bytes32)',
  'permit(address,uint256,uint256,bytes)',
  'authorizeOperator(address)',
  'setOperator(address,bool)',
  'approve(address,uint256,uint256)',
  'approveAndCall(address,uint256)',
  'approveAndCall(address,uint256,bytes)',
  'approve(address,address,uint160,uint48)',
  'transferOwnership(address)',
  'grantRole(bytes32,address)',
] as const

/** The known functions that move assets, and the kinds that meter each (`_movesAssets`, `_metered`). */
const MOVING: readonly [string, readonly number[]][] = [
  ['transfer(address,uint256)', [SESSION_KIND.erc20]],
  ['transferFrom(address,address,uint256)', [SESSION_KIND.erc20, SESSION_KIND.erc721]],
  ['safeTransferFrom(address,address,uint256)', [SESSION_KIND.erc721]],
  ['safeTransferFrom(address,address,uint256,bytes)', [SESSION_KIND.erc721]],
  ['safeTransferFrom(address,address,uint256,uint256,bytes)', [SESSION_KIND.erc1155]],
  ['safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)', []],
  ['send(address,uint256,bytes)', []],
  ['operatorSend(address,address,uint256,bytes,bytes)', []],
  ['transferAndCall(address,uint256)', []],
  ['transferAndCall(address,uint256,bytes)', []],
  ['transferFromAndCall(address,address,uint256)', []],
  ['transferFromAndCall(address,address,uint256,bytes)', []],
  ['transfer(address,uint256,uint256)', []],
  ['transferFrom(address,address,uint256,uint256)', []],
  ['burn(uint256)', []],
  ['burnFrom(address,uint256)', []],
  ['burn(uint256,bytes)', []],
  ['burn(address,uint256,uint256)', []],
  ['burnBatch(address,uint256[],uint256[])', []],
]

const KINDS = Object.values(SESSION_KIND)

describe('what a grant may hold', () => {
  test('no function whose power outlives the session, on any kind of target', async () => {
    const { owner, account, terms } = await accountWithSession()
    const key = randomAddress()
    for (const signature of OUTLIVING)
      for (const kind of KINDS)
        expect(
          await revertOf(
            simulateGrant(account.address, owner.address, key, {
              ...terms,
              kind,
              // Hidden among functions a session may hold.
              selectors: [SELECTOR.transfer, toFunctionSelector(signature)].slice(
                kind === SESSION_KIND.erc20 ? 0 : 1,
              ),
            }),
          ),
          `${signature} on kind ${kind}`,
        ).toBe('SessionSelectorForbidden')
  })

  test('no function that moves assets unless the target’s kind meters it', async () => {
    const { owner, account, terms } = await accountWithSession()
    const key = randomAddress()
    for (const [signature, metered] of MOVING)
      for (const kind of KINDS)
        expect(
          await revertOf(
            simulateGrant(account.address, owner.address, key, {
              ...terms,
              kind,
              selectors: [toFunctionSelector(signature)],
            }),
          ),
          `${signature} on kind ${kind}`,
        ).toBe(metered.includes(kind) ? undefined : 'SessionSelectorUnmetered')
  })

  test('a kind of at most 3 (ERC-1155) and a paymaster', async () => {
    const { owner, account, terms } = await accountWithSession()
    const key = randomAddress()
    const grant = (t: Partial<Terms>) =>
      revertOf(simulateGrant(account.address, owner.address, key, { ...terms, ...t }))
    expect(
      await grant({ kind: SESSION_KIND.erc1155, selectors: [toFunctionSelector('mint(address)')] }),
    ).toBeUndefined()
    expect(await grant({ kind: 4 })).toBe('SessionKindInvalid')
    expect(await grant({ kind: 255 })).toBe('SessionKindInvalid')
    expect(await grant({ paymaster: zeroAddress })).toBe('SessionPaymasterInvalid')
  })

  test('an unknown function on a target of no known kind: granted, never metered', async () => {
    const someone = randomAddress()
    const mintSome = encodeFunctionData({
      abi: testErc20Abi,
      functionName: 'mint',
      args: [someone, pusd('50')],
    })
    const { account, key } = await accountWithSession({
      kind: SESSION_KIND.other,
      selectors: [mintSome.slice(0, 10) as Hex],
      spendLimit: 0n,
    })
    const op = await sessionOperation({
      account: account.address,
      key,
      calls: [{ to: token.pusd, data: mintSome }],
    })
    // Validation lets it through (mint is the token owner's: the call itself then reverts).
    expect(await refusal(op)).toBeNull()
    const { event } = await handleOps(anvil.rpcUrl, op)
    expect(event.success).toBe(false)
    expect((await sessionOf(account.address, key.address)).spent).toBe(0n)
  })
})

describe('metering by kind', () => {
  test('ERC-721: each of transferFrom and both safeTransferFrom counts one NFT; to the recipient only; a call without its id is refused', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const key = privateKeyToAccount(generatePrivateKey())
    const receiver = randomAddress()
    const account = await toSimpleAccount({ client: client(), owner })
    const {
      address: pals,
      ids: [ids = []],
    } = await collectionOf([[account.address, 4]])
    expect(
      await tryGrant(account, owner, key.address, {
        target: pals,
        selectors: [
          SELECTOR.transferFrom,
          toFunctionSelector('safeTransferFrom(address,address,uint256)'),
          toFunctionSelector('safeTransferFrom(address,address,uint256,bytes)'),
        ],
        recipient: receiver,
        spendLimit: 3n,
        validAfter: 0,
        validUntil: (await chainNow()) + 86_400,
        kind: SESSION_KIND.erc721,
      }),
    ).toBe(true)
    const [a, b, c, d] = ids as [bigint, bigint, bigint, bigint]
    const op = (data: Hex) =>
      sessionOperation({ account: account.address, key, calls: [{ to: pals, data }] })
    const from = (to: Address, id: bigint) =>
      encodeFunctionData({
        abi: testErc721Abi,
        functionName: 'transferFrom',
        args: [account.address, to, id],
      })
    // To someone else, and without the id word: refused.
    expect(await refusal(await op(from(randomAddress(), a)))).toBe('AA24 signature error')
    expect(await refusal(await op(from(receiver, a)))).toBeNull()
    expect(await refusal(await op(from(receiver, a).slice(0, 2 + 8 + 128) as Hex))).toBe(
      'AA24 signature error',
    )
    // Three NFTs, one per call of each function, in one batch: exactly the limit.
    const batch = await sessionOperation({
      account: account.address,
      key,
      calls: [
        { to: pals, data: from(receiver, a) },
        {
          to: pals,
          data: encodeFunctionData({
            abi: testErc721Abi,
            functionName: 'safeTransferFrom',
            args: [account.address, receiver, b],
          }),
        },
        {
          to: pals,
          data: encodeFunctionData({
            abi: testErc721Abi,
            functionName: 'safeTransferFrom',
            args: [account.address, receiver, c, '0x1234'],
          }),
        },
      ],
    })
    expect((await handleOps(anvil.rpcUrl, batch)).event.success).toBe(true)
    for (const id of [a, b, c]) expect(await ownerOf(pals, id)).toBe(receiver)
    expect((await sessionOf(account.address, key.address)).spent).toBe(3n)
    expect(await refusal(await op(from(receiver, d)))).toBe('AA24 signature error')
  })

  test('ERC-1155: safeTransferFrom counts its amount, every id together (limit 10: 3 + 7 pass, 1 more is refused)', async () => {
    const receiver = randomAddress()
    // Validation reads only the calldata: pUSD stands in for the collection (its calls revert,
    // what they move still counts, as for any operation that passed validation).
    const { account, key } = await accountWithSession({
      kind: SESSION_KIND.erc1155,
      selectors: [toFunctionSelector('safeTransferFrom(address,address,uint256,uint256,bytes)')],
      recipient: receiver,
      spendLimit: 10n,
    })
    const erc1155 = parseAbi([
      'function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data)',
    ])
    const send = (to: Address, id: bigint, amount: bigint) =>
      sessionOperation({
        account: account.address,
        key,
        calls: [
          {
            to: token.pusd,
            data: encodeFunctionData({
              abi: erc1155,
              functionName: 'safeTransferFrom',
              args: [account.address, to, id, amount, '0x'],
            }),
          },
        ],
      })
    expect(await refusal(await send(randomAddress(), 1n, 1n))).toBe('AA24 signature error')
    expect(await refusal(await send(receiver, 1n, 11n))).toBe('AA24 signature error')
    await handleOps(anvil.rpcUrl, await send(receiver, 1n, 3n))
    expect((await sessionOf(account.address, key.address)).spent).toBe(3n)
    expect(await refusal(await send(receiver, 2n, 8n))).toBe('AA24 signature error')
    await handleOps(anvil.rpcUrl, await send(receiver, 2n, 7n))
    expect((await sessionOf(account.address, key.address)).spent).toBe(10n)
    expect(await refusal(await send(receiver, 3n, 1n))).toBe('AA24 signature error')
  })

  test('ERC-20 transferFrom under an NFT kind counts one, not its amount; under ERC-20 its amount', async () => {
    const receiver = randomAddress()
    const giver = randomAddress()
    const pull = (amount: bigint) =>
      encodeFunctionData({
        abi: testErc20Abi,
        functionName: 'transferFrom',
        args: [giver, receiver, amount],
      })
    const asToken = await accountWithSession({
      selectors: [SELECTOR.transferFrom],
      recipient: receiver,
      spendLimit: 5n,
    })
    const op = (setup: SessionSetup, amount: bigint) =>
      sessionOperation({
        account: setup.account.address,
        key: setup.key,
        calls: [{ to: token.pusd, data: pull(amount) }],
      })
    expect(await refusal(await op(asToken, 6n))).toBe('AA24 signature error')
    expect(await refusal(await op(asToken, 5n))).toBeNull()
    const asNft = await accountWithSession({
      kind: SESSION_KIND.erc721,
      selectors: [SELECTOR.transferFrom],
      recipient: receiver,
      spendLimit: 1n,
    })
    expect(await refusal(await op(asNft, pusd('1000')))).toBeNull()
  })
})

describe('the session’s paymaster', () => {
  test('is the one its grant named: a session bound to another paymaster is refused through the devnet’s', async () => {
    const otherSigner = privateKeyToAccount(generatePrivateKey())
    const other = await deployVerifyingPaymaster({
      rpcUrl: anvil.rpcUrl,
      signer: otherSigner.address,
    })
    const { account, key, terms } = await accountWithSession({ paymaster: other })
    expect((await sessionOf(account.address, key.address)).paymaster).toBe(other)
    const calls = [{ to: token.pusd, data: transfer(terms.recipient, pusd('1')) }]
    const devnets = await sessionOperation({ account: account.address, key, calls })
    expect(devnets.paymaster).toBe(DEVNET_AA.paymaster)
    expect(await refusal(devnets)).toBe('AA24 signature error')
    const chosen = await sessionOperation({
      account: account.address,
      key,
      calls,
      paymaster: { address: other, signer: otherSigner },
    })
    const { event } = await handleOps(anvil.rpcUrl, chosen)
    expect(event).toMatchObject({ success: true, paymaster: other })
  })
})
