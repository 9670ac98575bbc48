/**
 * What the smart-account specs share: a new embedded user on a smart account, pUSD for it, and
 * the wallet frame's approval card.
 */
import type { Page } from '@playwright/test'
import { DEVNET_TOKENS } from '@porthole/shared'
import { type Address, createWalletClient, erc20Abi, http, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { emailLogin, freshEmail, walletFrame } from './embedded.js'
import { DEMO_URL, DEVNET_RPC, devnet, expect, waitForPorthole } from './fixtures.js'

export const [PUSD] = DEVNET_TOKENS

/** Base units of a pUSD amount. */
export const pusd = (amount: string) => parseUnits(amount, PUSD.decimals)

/** The pUSD balance of `owner` on the first devnet. */
export const balanceOf = (owner: Address) =>
  devnet.readContract({
    address: PUSD.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  })

/** anvil's account 0 (dev account 0) deployed and owns pUSD: it tops the smart account up. */
const DEV_ACCOUNT_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

/** Sends pUSD from dev account 0 and waits for it. */
export async function sendPusd(to: Address, amount: bigint): Promise<void> {
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
export async function smartAccountUser(page: Page, query = ''): Promise<Address> {
  await page.goto(`${DEMO_URL}/?accountType=smartAccount${query}`)
  await waitForPorthole(page)
  return (await emailLogin(page, freshEmail('smart'))) as Address
}

/** Approves the wallet frame's card (checking who pays the gas first). */
export async function approveCard(page: Page, gas: RegExp = /Gas paid by/): Promise<void> {
  await expect(walletFrame(page).getByText(gas)).toBeVisible()
  await walletFrame(page).getByRole('button', { name: 'Approve' }).click()
}
