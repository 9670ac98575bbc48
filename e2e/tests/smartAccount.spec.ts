import { encodeFunctionData, erc20Abi, type Hex, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { providerRequest, walletFrame } from '../support/embedded.js'
import { connectThroughModal, devnet, expect, modal, state, test } from '../support/fixtures.js'
import {
  approveCard,
  balanceOf,
  PUSD,
  pusd,
  sendPusd,
  smartAccountUser,
} from '../support/smartAccount.js'

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
