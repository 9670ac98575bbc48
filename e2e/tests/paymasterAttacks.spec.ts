/**
 * Issue 25, findings 1 and 6, against the running stack over HTTP: the API's paymaster
 * (`pm_getPaymasterData` on `POST /v1?chainId&projectId`) asked by a stranger with no login, the
 * demo project's id and a fresh key; what it signs landed by the stranger itself with
 * `EntryPoint.handleOps` and its own beneficiary on the devnet. The victims are real embedded
 * wallet users of the demo, in Chromium.
 */
import { openDatabase } from '@porthole/api'
import { DEVNET_AA, ENTRY_POINT_07 } from '@porthole/shared/devnet'
import {
  portholeSessionsAbi,
  simpleAccountAbi,
  toSimpleAccount,
} from '@porthole/shared/simpleAccount'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  formatEther,
  type Hex,
  http,
  numberToHex,
  parseEther,
  parseGwei,
  toHex,
} from 'viem'
import {
  entryPoint07Abi,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { API_URL, admin, providerRequest, walletFrame } from '../support/embedded.js'
import { DEVNET_RPC, devnet, expect, modal, test, URLS } from '../support/fixtures.js'
import { approveCard, PUSD, pusd, sendPusd, smartAccountUser } from '../support/smartAccount.js'

/** The most one sponsored operation may cost the paymaster's deposit (the API's default). */
const PER_OPERATION_BUDGET = parseEther('0.01')
const DEMO = 'porthole-demo'

type RpcError = { code: number; message: string }

/** The API's RPC proxy for the first devnet, as anyone may call it: the demo's id, no login. */
async function proxy(
  method: string,
  params: unknown[],
): Promise<{ result?: unknown; error?: RpcError }> {
  const response = await fetch(`${API_URL}/v1?chainId=eip155:31337&projectId=${DEMO}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: URLS.demo },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await response.json()) as { result?: unknown; error?: RpcError }
}

const chainClient = createPublicClient({
  chain: {
    id: 31337,
    name: 'devnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [DEVNET_RPC] } },
  },
  transport: http(DEVNET_RPC),
})

const deposit = () =>
  devnet.readContract({
    address: ENTRY_POINT_07,
    abi: entryPoint07Abi,
    functionName: 'balanceOf',
    args: [DEVNET_AA.paymaster],
  })

/** The operation's fields as ERC-7677 sends them. */
function rpcOperation(op: Omit<UserOperation<'0.7'>, 'signature'>) {
  return {
    sender: op.sender,
    nonce: numberToHex(op.nonce),
    ...(op.factory ? { factory: op.factory, factoryData: op.factoryData } : {}),
    callData: op.callData,
    callGasLimit: numberToHex(op.callGasLimit),
    verificationGasLimit: numberToHex(op.verificationGasLimit),
    preVerificationGas: numberToHex(op.preVerificationGas),
    maxFeePerGas: numberToHex(op.maxFeePerGas),
    maxPriorityFeePerGas: numberToHex(op.maxPriorityFeePerGas),
    paymasterVerificationGasLimit: numberToHex(op.paymasterVerificationGasLimit ?? 100_000n),
    paymasterPostOpGasLimit: numberToHex(op.paymasterPostOpGasLimit ?? 1n),
  }
}

/** The demo project's count of sponsored operations today, from the stack's database. */
async function projectCountToday(): Promise<number> {
  const db = await openDatabase({ url: process.env.PORTHOLE_DATABASE_URL as string })
  try {
    const [row] = await db.query<{ op_count: number | bigint }>(
      "SELECT op_count FROM sponsored_user_operations WHERE project_id = ? AND sender = '*' AND utc_day = ?",
      [DEMO, new Date().toISOString().slice(0, 10)],
    )
    return row ? Number(row.op_count) : 0
  } finally {
    await db.close()
  }
}

test("the reviewer's drain over HTTP: a stranger with no login, a fresh key and the demo's id moves at most the per-operation budget", async () => {
  const owner = privateKeyToAccount(generatePrivateKey())
  const account = await toSimpleAccount({ client: chainClient, owner })
  const { factory, factoryData } = await account.getFactoryArgs()
  const price = (await deposit()) / 10_000_000n
  const op = {
    sender: account.address,
    nonce: 0n,
    factory,
    factoryData,
    callData: await account.encodeCalls([{ to: owner.address, value: 0n }]),
    callGasLimit: 100_000n,
    verificationGasLimit: 399_999n,
    preVerificationGas: 9_400_000n,
    maxFeePerGas: price,
    maxPriorityFeePerGas: price,
    paymasterVerificationGasLimit: 100_000n,
    paymasterPostOpGasLimit: 1n,
  }
  const before = await deposit()
  const answer = await proxy('pm_getPaymasterData', [
    rpcOperation(op),
    ENTRY_POINT_07,
    '0x7a69',
    {},
  ])
  if (answer.result) {
    // Signed: the stranger lands it itself, as its own beneficiary.
    const sponsored = answer.result as { paymaster: Address; paymasterData: Hex }
    const full: UserOperation<'0.7'> = {
      ...op,
      paymaster: sponsored.paymaster,
      paymasterData: sponsored.paymasterData,
      signature: '0x',
    }
    full.signature = await account.signUserOperation(full)
    const attacker = privateKeyToAccount(generatePrivateKey())
    await devnet.request({
      method: 'anvil_setBalance' as never,
      params: [attacker.address, toHex(parseEther('1'))] as never,
    })
    const hash = await createWalletClient({
      account: attacker,
      transport: http(DEVNET_RPC),
    }).writeContract({
      chain: null,
      address: ENTRY_POINT_07,
      abi: entryPoint07Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(full)], attacker.address],
      gas: 3_000_000n,
    })
    await devnet.waitForTransactionReceipt({ hash })
  }
  const drop = before - (await deposit())
  console.info(`paymaster deposit: −${formatEther(drop)} ETH`)
  expect(drop).toBeLessThanOrEqual(PER_OPERATION_BUDGET)
  expect(answer.error).toBeDefined()
  // With ordinary gas and fees: still not an account of the demo's users.
  const ordinary = await proxy('pm_getPaymasterData', [
    rpcOperation({
      ...op,
      preVerificationGas: 60_000n,
      maxFeePerGas: parseGwei('1'),
      maxPriorityFeePerGas: parseGwei('1'),
    }),
    ENTRY_POINT_07,
    '0x7a69',
    {},
  ])
  expect(ordinary.error).toMatchObject({
    code: -32004,
    message: "Gas sponsorship is only for the smart accounts of this project's users",
  })
})

test("random senders get no sponsorship and leave the demo project's count untouched", async () => {
  const before = await projectCountToday()
  const errors: (RpcError | undefined)[] = []
  for (let i = 0; i < 25; i++) {
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await toSimpleAccount({ client: chainClient, owner })
    const { factory, factoryData } = await account.getFactoryArgs()
    const answer = await proxy('pm_getPaymasterData', [
      rpcOperation({
        sender: account.address,
        nonce: 0n,
        factory,
        factoryData,
        callData: await account.encodeCalls([{ to: owner.address, value: 0n }]),
        callGasLimit: 50_000n,
        verificationGasLimit: 400_000n,
        preVerificationGas: 60_000n,
        maxFeePerGas: parseGwei('1'),
        maxPriorityFeePerGas: parseGwei('0.5'),
      }),
      ENTRY_POINT_07,
      '0x7a69',
      {},
    ])
    errors.push(answer.error)
  }
  expect(await projectCountToday()).toBe(before)
  for (const error of errors) expect(error?.code).toBe(-32004)
})

test("a stranger naming a wallet user's account 20 times: the user's next send is still sponsored", async ({
  page,
}) => {
  const smart = await smartAccountUser(page)
  await sendPusd(smart, pusd('5'))
  const send = async (to: Address) => {
    const sent = providerRequest(page, 'eth_sendTransaction', [
      {
        from: smart,
        to: PUSD.address,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [to, pusd('1')],
        }),
      },
    ])
    await approveCard(page, /Gas paid by/)
    const { error } = await sent
    expect(error).toBeUndefined()
  }
  const receiver = privateKeyToAccount(generatePrivateKey()).address
  await send(receiver)

  // The stranger: the account's next nonce, with its own calls, 20 times.
  const nonce = await devnet.readContract({
    address: ENTRY_POINT_07,
    abi: entryPoint07Abi,
    functionName: 'getNonce',
    args: [smart, 0n],
  })
  const thief = privateKeyToAccount(generatePrivateKey()).address
  for (let i = 0; i < 20; i++)
    await proxy('pm_getPaymasterData', [
      rpcOperation({
        sender: smart,
        nonce: i < 10 ? nonce : nonce + BigInt(i),
        callData: encodeFunctionData({
          abi: simpleAccountAbi,
          functionName: 'execute',
          args: [thief, 0n, '0x'],
        }),
        callGasLimit: 50_000n,
        verificationGasLimit: 100_000n,
        preVerificationGas: 55_000n,
        maxFeePerGas: parseGwei('1'),
        maxPriorityFeePerGas: parseGwei('0.5'),
      }),
      ENTRY_POINT_07,
      '0x7a69',
      {},
    ])

  // The user's own next send: sponsored, and it lands.
  await send(receiver)
  expect(await devnet.getBalance({ address: smart })).toBe(0n)
  expect(
    await devnet.readContract({
      address: PUSD.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [receiver],
    }),
  ).toBe(pusd('2'))
})

test('a wallet user at the daily cap, with no ETH, can still revoke a session from the Account view', async ({
  page,
}) => {
  const smart = await smartAccountUser(page)
  const key = privateKeyToAccount(generatePrivateKey())
  const granting = providerRequest(page, 'wallet_grantPermissions', [
    {
      expiry: Math.floor(Date.now() / 1000) + 3600,
      signer: { type: 'account', data: { id: key.address } },
      permissions: [
        {
          type: 'erc20-token-transfer',
          data: { address: PUSD.address, ticker: 'pUSD' },
          policies: [{ type: 'token-allowance', data: { allowance: toHex(pusd('10')) } }],
          required: true,
        },
      ],
    },
  ])
  await approveCard(page)
  expect((await granting).error).toBeUndefined()
  // The grant was the account's one sponsored operation today: the cap is now reached.
  admin('project', 'sponsorship', DEMO, 'on', '--daily-cap', '1')
  try {
    await page.evaluate('window.porthole.open()')
    const frame = modal(page)
    const row = frame.getByTestId('smart-session')
    await row.getByRole('button', { name: /^Revoke/ }).click()
    await expect(frame.getByRole('status').getByText('Session revoked')).toBeVisible({
      timeout: 30_000,
    })
    const session = await devnet.readContract({
      address: smart,
      abi: portholeSessionsAbi,
      functionName: 'sessions',
      args: [key.address],
    })
    expect(session[6]).toBe(false)
    expect(await devnet.getBalance({ address: smart })).toBe(0n)
    await expect(walletFrame(page).getByRole('button', { name: 'Approve' })).toHaveCount(0)
  } finally {
    admin('project', 'sponsorship', DEMO, 'on', '--daily-cap', '20')
  }
})
