/**
 * Issue 15, smart accounts: a new embedded user on a smart account (ERC-4337 SimpleAccount v0.7
 * through the local bundler) signs before deployment (ERC-6492) and after (ERC-1271), sends pUSD
 * with the gas sponsored by the paymaster (its ETH stays 0) and the account deploys with that
 * first operation; the Account view lists both accounts and switches to the owner; an approve +
 * transfer batch lands atomically through `wallet_sendCalls` and `wallet_getCallsStatus` reports
 * it with its receipt; a browser wallet without EIP-5792 answers 4200 by name.
 */
import type { Page } from '@playwright/test'
import { DEVNET_TOKENS } from '@porthole/shared'
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  parseUnits,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { emailLogin, freshEmail, providerRequest, walletFrame } from '../support/embedded.js'
import {
  connectThroughModal,
  DEMO_URL,
  DEVNET_RPC,
  devnet,
  expect,
  modal,
  state,
  test,
  waitForPorthole,
} from '../support/fixtures.js'

const [PUSD] = DEVNET_TOKENS
const pusd = (amount: string) => parseUnits(amount, PUSD.decimals)
const balanceOf = (owner: Address) =>
  devnet.readContract({
    address: PUSD.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  })

/** anvil's account 0 (dev account 0) deployed and owns pUSD: it tops the smart account up. */
const DEV_ACCOUNT_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

async function sendPusd(to: Address, amount: bigint): Promise<void> {
  const wallet = createWalletClient({
    account: privateKeyToAccount(DEV_ACCOUNT_0),
    transport: http(DEVNET_RPC),
  })
  const hash = await wallet.writeContract({
    chain: null,
    address: PUSD.address,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  })
  await devnet.waitForTransactionReceipt({ hash })
}

/** A new embedded user on the demo with smart accounts; its address is the smart account's. */
async function smartAccountUser(page: Page): Promise<Address> {
  await page.goto(`${DEMO_URL}/?accountType=smartAccount`)
  await waitForPorthole(page)
  return (await emailLogin(page, freshEmail('smart'))) as Address
}

/** Approves the wallet frame's card (checking who pays the gas first). */
async function approveCard(page: Page, gas: RegExp = /Gas paid by/): Promise<void> {
  await expect(walletFrame(page).getByText(gas)).toBeVisible()
  await walletFrame(page).getByRole('button', { name: 'Approve' }).click()
}

test('a sponsored pUSD send deploys the smart account; it signs before and after; the owner is one click away', async ({
  page,
}) => {
  const smart = await smartAccountUser(page)
  expect(await devnet.getCode({ address: smart })).toBeUndefined()
  await sendPusd(smart, pusd('5'))

  // Before deployment: an ERC-6492 signature that viem verifies.
  const before = providerRequest(page, 'personal_sign', [toHex('hello before'), smart])
  await approveCard(page, /^Sign message$/)
  const signedBefore = (await before).value as Hex
  expect(
    await devnet.verifyMessage({
      address: smart,
      message: 'hello before',
      signature: signedBefore,
    }),
  ).toBe(true)

  // A pUSD transfer: one user operation, the paymaster pays, the account deploys.
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const sent = providerRequest(page, 'eth_sendTransaction', [
    {
      from: smart,
      to: PUSD.address,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [recipient, pusd('1')],
      }),
    },
  ])
  await approveCard(page)
  const { value: hash, error } = await sent
  expect(error).toBeUndefined()
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
  expect(await balanceOf(recipient)).toBe(pusd('1'))
  expect(await balanceOf(smart)).toBe(pusd('4'))
  expect(await devnet.getBalance({ address: smart })).toBe(0n)
  expect(await devnet.getCode({ address: smart })).toMatch(/^0x[0-9a-f]+$/)

  // After deployment: ERC-1271.
  const after = providerRequest(page, 'personal_sign', [toHex('hello after'), smart])
  await approveCard(page, /^Sign message$/)
  expect(
    await devnet.verifyMessage({
      address: smart,
      message: 'hello after',
      signature: (await after).value as Hex,
    }),
  ).toBe(true)

  // The Account view lists both accounts; switching makes the owner the dapp's account.
  await page.evaluate('window.porthole.open()')
  const frame = modal(page)
  await expect(frame.getByTestId('account-smartAccount')).toContainText('In use')
  await expect(frame.getByTestId('account-eoa')).toContainText('Owner account (EOA)')
  await frame.getByRole('button', { name: 'Use Owner account (EOA)' }).click()
  await expect(frame.getByTestId('account-eoa')).toContainText('In use')
  const owner = ((await state(page)) as { address: string }).address
  expect(owner.toLowerCase()).not.toBe(smart.toLowerCase())
  expect((await providerRequest(page, 'eth_accounts')).value).toEqual([owner])
})

test('wallet_sendCalls: approve + transfer land in one user operation; wallet_getCallsStatus reports it', async ({
  page,
}) => {
  const smart = await smartAccountUser(page)
  await sendPusd(smart, pusd('3'))
  const spender = privateKeyToAccount(generatePrivateKey()).address
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const capabilities = (await providerRequest(page, 'wallet_getCapabilities', [smart]))
    .value as Record<string, { atomic?: { status?: string } }>
  expect(capabilities['0x7a69']?.atomic?.status).toBe('supported')
  const sent = providerRequest(page, 'wallet_sendCalls', [
    {
      version: '2.0.0',
      chainId: '0x7a69',
      from: smart,
      atomicRequired: true,
      calls: [
        {
          to: PUSD.address,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'approve',
            args: [spender, pusd('2')],
          }),
        },
        {
          to: PUSD.address,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [recipient, pusd('1')],
          }),
        },
      ],
    },
  ])
  // The card lists both calls.
  await expect(
    walletFrame(page)
      .getByText(/Approve/)
      .first(),
  ).toBeVisible()
  await approveCard(page)
  const { value, error } = await sent
  expect(error).toBeUndefined()
  const { id } = value as { id: string }
  let status: { status?: number; atomic?: boolean; receipts?: { status: string }[] } = {}
  await expect
    .poll(
      async () => {
        status = (await providerRequest(page, 'wallet_getCallsStatus', [id])).value as typeof status
        return status.status
      },
      { timeout: 30_000 },
    )
    .toBe(200)
  expect(status.atomic).toBe(true)
  expect(status.receipts?.[0]?.status).toBe('0x1')
  expect(await balanceOf(recipient)).toBe(pusd('1'))
  expect(
    await devnet.readContract({
      address: PUSD.address,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [smart, spender],
    }),
  ).toBe(pusd('2'))
  expect(await devnet.getBalance({ address: smart })).toBe(0n)
})

test('a browser wallet without EIP-5792 answers 4200 by name', async ({ dapp }) => {
  await connectThroughModal(dapp)
  const answer = await providerRequest(dapp, 'wallet_sendCalls', [
    {
      version: '2.0.0',
      chainId: '0x7a69',
      calls: [{ to: PUSD.address, data: '0x' }],
    },
  ])
  expect(answer.error).toEqual({
    code: 4200,
    message: 'Porthole Dev Wallet does not support wallet_sendCalls (EIP-5792)',
  })
  // The batch rules come first (spec §5).
  const bad = await providerRequest(dapp, 'wallet_sendCalls', [
    { version: '2.0.0', chainId: '0x7a69', calls: [{ to: 'nowhere' }] },
  ])
  expect(bad.error).toEqual({ code: -32602, message: "Call 1: 'to' must start with 0x" })
})
