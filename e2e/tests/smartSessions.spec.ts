/**
 * Issue 15, smart sessions (ERC-7715): a dapp asks for a session key allowed to send 10 pUSD to
 * one address for an hour; the wallet's card shows those terms and the grant installs them on
 * the smart account. The dapp then has the wallet prepare operations, signs them with its own
 * key and sends them: no card. Over the limit the wallet refuses, and so does the chain when the
 * key's holder goes around the wallet straight to the bundler. Revoking from the Account view
 * ends the session on chain: the next call is refused.
 */
import type { Page } from '@playwright/test'
import { DEVNET_AA } from '@porthole/shared/devnet'
import {
  encodeSessionSignature,
  portholeSessionsAbi,
  sessionNonceKey,
  simpleAccountAbi,
} from '@porthole/shared/simpleAccount'
import { type Address, encodeFunctionData, erc20Abi, type Hex, toHex } from 'viem'
import {
  entryPoint07Abi,
  entryPoint07Address,
  getUserOperationHash,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { API_URL, providerRequest, walletFrame } from '../support/embedded.js'
import { devnet, expect, modal, state, test, URLS } from '../support/fixtures.js'
import {
  approveCard,
  balanceOf,
  PUSD,
  pusd,
  sendPusd,
  smartAccountUser,
} from '../support/smartAccount.js'

const transfer = (to: Address, amount: string): Hex =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, pusd(amount)] })

/** The dapp's side of a session call: prepare through the wallet, sign with its key, send. */
async function sessionSend(
  page: Page,
  parameters: { smart: Address; context: string; key: ReturnType<typeof privateKeyToAccount> },
  to: Address,
  amount: string,
): Promise<{ id?: string; error?: { code: number; message: string } }> {
  const prepared = await providerRequest(page, 'wallet_prepareCalls', [
    {
      from: parameters.smart,
      chainId: '0x7a69',
      calls: [{ to: PUSD.address, data: transfer(to, amount) }],
      capabilities: { permissions: { context: parameters.context } },
    },
  ])
  if (prepared.error) return { error: prepared.error }
  const answer = prepared.value as {
    preparedCalls: unknown
    signatureRequest: { hash: Hex }
    context: string
  }
  const signature = await parameters.key.signMessage({
    message: { raw: answer.signatureRequest.hash },
  })
  const sent = await providerRequest(page, 'wallet_sendPreparedCalls', [
    { preparedCalls: answer.preparedCalls, signature, context: answer.context },
  ])
  if (sent.error) return { error: sent.error }
  const { id } = sent.value as { id: string }
  await expect
    .poll(
      async () =>
        ((await providerRequest(page, 'wallet_getCallsStatus', [id])).value as { status?: number })
          ?.status,
      { timeout: 30_000 },
    )
    .toBe(200)
  return { id }
}

/** The API's RPC proxy for the first devnet, as the demo project calls it. */
async function proxy<T>(method: string, params: unknown[]): Promise<T> {
  const url = `${API_URL}/v1?chainId=eip155:31337&projectId=porthole-demo`
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: URLS.demo },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: T; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result as T
}

/**
 * The key's holder going around the wallet: it builds an over-limit operation itself, has the
 * project's paymaster sponsor it, signs it with the session key and hands it to the bundler.
 * Answers 'accepted', or the paymaster's or the bundler's refusal.
 */
async function aroundTheWallet(
  smart: Address,
  key: ReturnType<typeof privateKeyToAccount>,
  callData: Hex,
): Promise<string> {
  const nonce = await devnet.readContract({
    address: entryPoint07Address,
    abi: entryPoint07Abi,
    functionName: 'getNonce',
    args: [smart, sessionNonceKey(key.address)],
  })
  const fees = await proxy<{ standard: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex } }>(
    'pimlico_getUserOperationGasPrice',
    [],
  )
  const base = {
    sender: smart,
    nonce: toHex(nonce),
    callData,
    callGasLimit: toHex(200_000),
    verificationGasLimit: toHex(300_000),
    // Within what the paymaster signs for this operation's size (~68,000).
    preVerificationGas: toHex(60_000),
    maxFeePerGas: fees.standard.maxFeePerGas,
    maxPriorityFeePerGas: fees.standard.maxPriorityFeePerGas,
    paymasterVerificationGasLimit: toHex(100_000),
    paymasterPostOpGasLimit: toHex(0),
    signature: '0x' as Hex,
  }
  let sponsored: { paymaster: Address; paymasterData: Hex }
  try {
    sponsored = await proxy('pm_getPaymasterData', [
      { ...base, paymaster: undefined },
      entryPoint07Address,
      '0x7a69',
      {},
    ])
  } catch (error) {
    return (error as Error).message
  }
  const op = { ...base, paymaster: sponsored.paymaster, paymasterData: sponsored.paymasterData }
  const hash = getUserOperationHash({
    userOperation: {
      ...op,
      nonce,
      callGasLimit: 200_000n,
      verificationGasLimit: 300_000n,
      preVerificationGas: 60_000n,
      maxFeePerGas: BigInt(op.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(op.maxPriorityFeePerGas),
      paymasterVerificationGasLimit: 100_000n,
      paymasterPostOpGasLimit: 0n,
    } as UserOperation<'0.7'>,
    entryPointAddress: entryPoint07Address,
    entryPointVersion: '0.7',
    chainId: 31337,
  })
  const signature = encodeSessionSignature(
    key.address,
    await key.signMessage({ message: { raw: hash } }),
  )
  try {
    await proxy('eth_sendUserOperation', [{ ...op, signature }, entryPoint07Address])
    return 'accepted'
  } catch (error) {
    return (error as Error).message
  }
}

test('a session of 10 pUSD to one address: two sends without a prompt, the third refused (by the wallet and by the chain), revoked from the Account view', async ({
  page,
}) => {
  const smart = await smartAccountUser(page)
  await sendPusd(smart, pusd('20'))
  const key = privateKeyToAccount(generatePrivateKey())
  const receiver = privateKeyToAccount(generatePrivateKey()).address
  const expiry = Math.floor(Date.now() / 1000) + 3600

  // The dapp asks; the card shows the terms.
  const granting = providerRequest(page, 'wallet_grantPermissions', [
    {
      expiry,
      signer: { type: 'account', data: { id: key.address } },
      permissions: [
        {
          type: 'erc20-token-transfer',
          data: { address: PUSD.address, ticker: 'pUSD' },
          policies: [
            { type: 'token-allowance', data: { allowance: toHex(pusd('10')) } },
            { type: 'recipient', data: { address: receiver } },
          ],
          required: true,
        },
      ],
    },
  ])
  const card = walletFrame(page)
  await expect(card.getByText('Grant permissions')).toBeVisible()
  await expect(card.getByText('10 pUSD', { exact: true })).toBeVisible()
  await expect(card.getByText(receiver)).toBeVisible()
  await expect(card.getByText(key.address)).toBeVisible()
  await expect(card.getByText(/in 1 hour/)).toBeVisible()
  await approveCard(page)
  const granted = await granting
  expect(granted.error).toBeUndefined()
  const { permissionsContext: context } = granted.value as { permissionsContext: string }
  expect(context).toBe(key.address.toLowerCase())
  // Installed on the account, which the grant deployed.
  const onChain = await devnet.readContract({
    address: smart,
    abi: portholeSessionsAbi,
    functionName: 'sessions',
    args: [key.address],
  })
  // An ERC-20 (kind 1), its operations only through the project's paymaster.
  expect(onChain).toEqual([
    PUSD.address,
    receiver,
    pusd('10'),
    0n,
    0,
    expiry,
    true,
    1,
    DEVNET_AA.paymaster,
  ])

  // Two sends of 2 pUSD, signed by the dapp's key: no card, the modal stays closed.
  const session = { smart, context, key }
  for (const n of [1, 2]) {
    const sent = await sessionSend(page, session, receiver, '2')
    expect(sent.error).toBeUndefined()
    expect(await balanceOf(receiver)).toBe(pusd(String(2 * n)))
    expect(await state(page)).toMatchObject({ open: false })
    await expect(card.getByRole('button', { name: 'Approve' })).toHaveCount(0)
  }
  expect(await balanceOf(smart)).toBe(pusd('16'))
  expect(await devnet.getBalance({ address: smart })).toBe(0n)

  // 7 more would make 11 of 10: the wallet refuses with the reason.
  const over = await sessionSend(page, session, receiver, '7')
  expect(over.error?.code).toBe(4100)
  expect(over.error?.message).toContain("Over the session's spend limit: 7 pUSD asked, 6 pUSD")
  // Another recipient too.
  const elsewhere = await sessionSend(page, session, smart, '1')
  expect(elsewhere.error?.message).toContain('The session only pays')
  // Around the wallet, straight to the bundler with a sponsored operation: within the terms the
  // account takes it (so the way is open), over them it refuses.
  const within = await aroundTheWallet(
    smart,
    key,
    encodeFunctionData({
      abi: simpleAccountAbi,
      functionName: 'execute',
      args: [PUSD.address, 0n, transfer(receiver, '1')],
    }),
  )
  expect(within).toBe('accepted')
  await expect.poll(() => balanceOf(receiver), { timeout: 30_000 }).toBe(pusd('5'))
  const direct = await aroundTheWallet(
    smart,
    key,
    encodeFunctionData({
      abi: simpleAccountAbi,
      functionName: 'execute',
      args: [PUSD.address, 0n, transfer(receiver, '7')],
    }),
  )
  expect(direct).toMatch(/AA24 signature error/)
  expect(await balanceOf(receiver)).toBe(pusd('5'))

  // The Account view lists the session; Revoke ends it on chain.
  await page.evaluate('window.porthole.open()')
  const frame = modal(page)
  const row = frame.getByTestId('smart-session')
  await expect(row).toContainText(URLS.demo)
  await expect(row).toContainText('5 pUSD of 10 pUSD spent')
  await row.getByRole('button', { name: /^Revoke/ }).click()
  await expect(frame.getByRole('status').getByText('Session revoked')).toBeVisible({
    timeout: 30_000,
  })
  await expect(frame.getByTestId('smart-session')).toHaveCount(0)
  const revoked = await devnet.readContract({
    address: smart,
    abi: portholeSessionsAbi,
    functionName: 'sessions',
    args: [key.address],
  })
  expect(revoked[6]).toBe(false)
  await page.evaluate('window.porthole.close()')

  // The next call is refused, by the wallet and by the chain.
  const after = await sessionSend(page, session, receiver, '1')
  expect(after.error?.message).toContain('The session was revoked')
  const directAfter = await aroundTheWallet(
    smart,
    key,
    encodeFunctionData({
      abi: simpleAccountAbi,
      functionName: 'execute',
      args: [PUSD.address, 0n, transfer(receiver, '1')],
    }),
  )
  // The paymaster no longer sponsors the revoked key's lane (and the account would refuse it).
  expect(directAfter).toMatch(/lane of no active session key of this account/)
  expect(await balanceOf(receiver)).toBe(pusd('5'))
})
