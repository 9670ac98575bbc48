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
import { deployAccountAbstraction } from './aa.ts'
import { testErc20Abi } from './abi/erc20.ts'
import { portholeSimpleAccountAbi } from './abi/portholeSimpleAccount.ts'
import { DEPLOYER } from './accounts.ts'
import { type StartAnvilReturnType, startAnvil } from './anvil.ts'
import { deployTestTokens } from './deploy.ts'
import {
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
}

const grantData = (key: Address, terms: Terms) =>
  encodeFunctionData({
    abi: portholeSessionsAbi,
    functionName: 'grantSession',
    args: [
      key,
      terms.target,
      terms.selectors,
      terms.recipient,
      terms.spendLimit,
      terms.validAfter,
      terms.validUntil,
    ],
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
        signer: paymasterSigner,
        validUntil: (await chainNow()) + 3600,
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
  const [target, recipient, spendLimit, spent, validAfter, validUntil, active] =
    await client().readContract({
      address: account,
      abi: portholeSessionsAbi,
      functionName: 'sessions',
      args: [key],
    })
  return { target, recipient, spendLimit, spent, validAfter, validUntil, active }
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
          selectors: [SELECTOR.approve, SELECTOR.approve],
          spendLimit: pusd('5'),
        }),
      },
    ])
    await handleOps(anvil.rpcUrl, regrant)
    expect(await selectorsOf(account.address, key.address)).toEqual([SELECTOR.approve])
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
    const approval = (amount: bigint) =>
      sessionOperation({
        account: account.address,
        key,
        calls: [{ to: token.pusd, data: approve(terms.recipient, amount) }],
      })
    expect((await handleOps(anvil.rpcUrl, await approval(pusd('5')))).event.success).toBe(true)
    expect(
      await client().readContract({
        address: token.pusd,
        abi: testErc20Abi,
        functionName: 'allowance',
        args: [account.address, terms.recipient],
      }),
    ).toBe(pusd('5'))
    expect(await refusal(await approval(1n))).toBe('AA24 signature error')
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
      client().simulateContract({
        account: from,
        address: account.address,
        abi: portholeSessionsAbi,
        functionName: 'grantSession',
        args: [
          k,
          t.target ?? terms.target,
          t.selectors ?? terms.selectors,
          t.recipient ?? terms.recipient,
          t.spendLimit ?? terms.spendLimit,
          t.validAfter ?? terms.validAfter,
          t.validUntil ?? terms.validUntil,
        ],
      })
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
