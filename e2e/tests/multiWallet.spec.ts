/**
 * Injected Solana and Bitcoin wallets (Wallet Standard, through the SDK), several wallets at
 * once, and switching between namespaces (issue 12).
 */
import { ed25519 } from '@noble/curves/ed25519'
import type { Page } from '@playwright/test'
import {
  BITCOIN_REGTEST_CAIP,
  BITCOIN_TEST_ACCOUNTS,
  SOLANA_LOCALNET_CAIP,
  SOLANA_TEST_ACCOUNTS,
} from '@porthole/shared'
import { base58 } from '@scure/base'
import { PublicKey, Connection as SolanaConnection } from '@solana/web3.js'
import {
  bitcoinDevWalletScript,
  DEMO_URL,
  devWalletScript,
  expect,
  modal,
  solanaDevWalletScript,
  state,
  test,
  URLS,
  WALLET_ADDRESS,
  waitForPorthole,
} from '../support/fixtures.js'

const SOLANA = SOLANA_TEST_ACCOUNTS[0].address
const FRIEND = SOLANA_TEST_ACCOUNTS[2].address
const BTC = BITCOIN_TEST_ACCOUNTS[0]
const ESPLORA = URLS.bitcoin
const solanaRpc = new SolanaConnection(URLS.solana, 'confirmed')

type Provider = { request(a: { method: string; params?: unknown }): Promise<unknown> }
type W = Window & {
  porthole: {
    connect(o?: { namespace?: string }): Promise<Record<string, unknown>>
    switchNetwork(id: string): Promise<void>
    open(o?: unknown): Promise<void>
    getState(): Record<string, unknown>
    getProvider(ns: string): Provider
  }
}

/** The demo with the three dev wallets (approving everything) and the given networks. */
async function openDemo(page: Page, networks: string) {
  await page.addInitScript(devWalletScript())
  await page.addInitScript(solanaDevWalletScript())
  await page.addInitScript(bitcoinDevWalletScript())
  await page.goto(`${DEMO_URL}/?networks=${networks}`)
  await waitForPorthole(page)
}

/** `connect({ namespace })` through the modal, choosing `wallet`; resolves with its result. */
async function connectWith(page: Page, wallet: string, namespace?: string) {
  const result = page.evaluate(
    (ns) => (window as unknown as W).porthole.connect(ns ? { namespace: ns } : undefined),
    namespace,
  )
  await modal(page).getByRole('button', { name: wallet }).click()
  return result
}

function request(page: Page, namespace: string, method: string, params?: unknown) {
  return page.evaluate(
    ([ns, m, p]) =>
      (window as unknown as W).porthole
        .getProvider(ns as string)
        .request({ method: m as string, ...(p === undefined ? {} : { params: p }) }),
    [namespace, method, params] as const,
  )
}

const connectionsOf = async (page: Page) =>
  (await state(page)).connections as { namespace: string; address: string; active: boolean }[]

test('the Solana dev wallet is listed by name, connects, signs a message, and a SOL send from the modal lands', async ({
  page,
}) => {
  await openDemo(page, `eip155:31337,${SOLANA_LOCALNET_CAIP}`)
  const result = await connectWith(page, 'Porthole Solana Dev Wallet', 'solana')
  expect(result).toEqual({
    address: SOLANA,
    caipAddress: `${SOLANA_LOCALNET_CAIP}:${SOLANA}`,
    caipNetworkId: SOLANA_LOCALNET_CAIP,
    chainId: SOLANA_LOCALNET_CAIP.split(':')[1],
  })
  expect(await state(page)).toMatchObject({
    status: 'connected',
    address: SOLANA,
    connector: { name: 'Porthole Solana Dev Wallet' },
  })

  const message = new TextEncoder().encode('Porthole signs on Solana')
  const { signature } = (await request(page, 'solana', 'solana_signMessage', {
    message: base58.encode(message),
    pubkey: SOLANA,
  })) as { signature: string }
  expect(ed25519.verify(base58.decode(signature), message, base58.decode(SOLANA))).toBe(true)

  // Send SOL from the Account view: the modal builds the transfer, the wallet signs and sends.
  const before = await solanaRpc.getBalance(new PublicKey(FRIEND))
  await page.evaluate(() => (window as unknown as W).porthole.open())
  const frame = modal(page)
  await expect(frame.getByTestId('account-balance')).toContainText('SOL')
  await frame.getByRole('button', { name: 'Send' }).click()
  await frame.getByTestId('send-token').click()
  await frame
    .getByRole('button', { name: /\bSOL\b/ })
    .first()
    .click()
  await frame.getByRole('textbox', { name: 'Amount' }).fill('0.5')
  await frame.getByRole('textbox', { name: 'Receiver address' }).fill(FRIEND)
  await frame.getByRole('button', { name: 'Preview send' }).click()
  await expect(frame.getByTestId('send-preview')).toContainText('0.500 SOL')
  await frame.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(frame.getByTestId('account-address')).toBeVisible()
  await expect
    .poll(() => solanaRpc.getBalance(new PublicKey(FRIEND)), { timeout: 20_000 })
    .toBe(before + 500_000_000)
})

test('an EVM and a Solana wallet at once: ProfileWallets switches the active one; a reload restores both', async ({
  page,
}) => {
  await openDemo(page, `eip155:31337,${SOLANA_LOCALNET_CAIP}`)
  await connectWith(page, 'Porthole Dev Wallet')
  await connectWith(page, 'Porthole Solana Dev Wallet', 'solana')
  expect((await connectionsOf(page)).map((c) => [c.namespace, c.address, c.active])).toEqual([
    ['eip155', WALLET_ADDRESS, true],
    ['solana', SOLANA, true],
  ])
  expect(await state(page)).toMatchObject({ address: SOLANA })
  // Each provider keeps its own account.
  expect(await request(page, 'eip155', 'eth_accounts')).toEqual([WALLET_ADDRESS])
  expect(await request(page, 'solana', 'solana_getAccounts')).toEqual([{ pubkey: SOLANA }])

  await page.evaluate(() => (window as unknown as W).porthole.open())
  const frame = modal(page)
  await frame.getByTestId('open-profile-wallets').click()
  const list = frame.getByTestId('profile-wallets')
  await expect(list.getByRole('button', { name: /^Use / })).toHaveCount(2)
  // Each row: address, wallet, namespace and its balance.
  await expect(list.getByTestId('wallet-solana')).toContainText(
    /Porthole Solana Dev Wallet · Solana · [\d.,]+ SOL/,
  )
  await expect(list.getByTestId('wallet-eip155')).toContainText(
    /Porthole Dev Wallet · EVM · [\d.,]+ ETH/,
  )
  await list.getByTestId('wallet-eip155').click()
  await expect(frame.getByTestId('account-address')).toBeVisible()
  await expect.poll(async () => (await state(page)).address).toBe(WALLET_ADDRESS)
  expect(await state(page)).toMatchObject({ caipNetworkId: 'eip155:31337', chainId: 31337 })

  await page.reload()
  await waitForPorthole(page)
  await expect
    .poll(async () => (await connectionsOf(page)).map((c) => c.namespace).sort())
    .toEqual(['eip155', 'solana'])
  expect(await state(page)).toMatchObject({ status: 'connected', address: WALLET_ADDRESS })

  // Disconnecting the EVM wallet makes the Solana one active; the EVM provider has no account.
  await page.evaluate(() => (window as unknown as W).porthole.open())
  await frame.getByTestId('open-profile-wallets').click()
  await frame.getByRole('button', { name: 'Disconnect Porthole Dev Wallet (EVM)' }).click()
  await expect.poll(async () => (await state(page)).address).toBe(SOLANA)
  expect(await request(page, 'eip155', 'eth_accounts')).toEqual([])
})

test('switching EVM ↔ Solana: with both connected it selects the account; without, Connect lists the target namespace', async ({
  page,
}) => {
  await openDemo(page, `eip155:31337,${SOLANA_LOCALNET_CAIP}`)
  await connectWith(page, 'Porthole Dev Wallet')
  expect(await state(page)).toMatchObject({ address: WALLET_ADDRESS })

  // No Solana account yet: SwitchActiveChain, then Connect with the Solana wallets only.
  const switching = page.evaluate(
    (id) => (window as unknown as W).porthole.switchNetwork(id),
    SOLANA_LOCALNET_CAIP,
  )
  const frame = modal(page)
  await frame.getByRole('button', { name: 'Continue' }).click()
  await expect(frame.getByRole('button', { name: 'Porthole Solana Dev Wallet' })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'Porthole Dev Wallet', exact: true })).toHaveCount(
    0,
  )
  await frame.getByRole('button', { name: 'Porthole Solana Dev Wallet' }).click()
  await switching
  await expect.poll(async () => (await state(page)).address).toBe(SOLANA)
  expect(await state(page)).toMatchObject({ caipNetworkId: SOLANA_LOCALNET_CAIP })
  // The EVM provider still names the EVM account and chain: nothing stale crossed over.
  expect(await request(page, 'eip155', 'eth_accounts')).toEqual([WALLET_ADDRESS])
  expect(await request(page, 'eip155', 'eth_chainId')).toBe('0x7a69')

  // Back to EVM, and to Solana again: both connected, so each switch only selects.
  await page.evaluate(() => (window as unknown as W).porthole.switchNetwork('eip155:31337'))
  expect(await state(page)).toMatchObject({
    address: WALLET_ADDRESS,
    caipNetworkId: 'eip155:31337',
  })
  await page.evaluate(
    (id) => (window as unknown as W).porthole.switchNetwork(id),
    SOLANA_LOCALNET_CAIP,
  )
  expect(await state(page)).toMatchObject({ address: SOLANA, caipNetworkId: SOLANA_LOCALNET_CAIP })
})

test('the Bitcoin dev wallet connects (payment, then ordinal), signs a message, and sendTransfer moves coins on regtest', async ({
  page,
}) => {
  await openDemo(page, `eip155:31337,${BITCOIN_REGTEST_CAIP}`)
  const result = await connectWith(page, 'Porthole Bitcoin Dev Wallet', 'bip122')
  expect(result).toMatchObject({
    address: BTC.payment.address,
    caipAddress: `${BITCOIN_REGTEST_CAIP}:${BTC.payment.address}`,
  })
  const signed = (await request(page, 'bip122', 'signMessage', {
    account: BTC.payment.address,
    message: 'Porthole signs on Bitcoin',
  })) as { address: string; signature: string }
  expect(signed.address).toBe(BTC.payment.address)
  expect(signed.signature.length).toBeGreaterThan(40)

  const receiver = BITCOIN_TEST_ACCOUNTS[2].payment.address
  const funded = async () => {
    const stats = (await (await fetch(`${ESPLORA}/address/${receiver}`)).json()) as {
      chain_stats: { funded_txo_sum: number; spent_txo_sum: number }
    }
    return stats.chain_stats.funded_txo_sum - stats.chain_stats.spent_txo_sum
  }
  const before = await funded()
  const { txid } = (await request(page, 'bip122', 'sendTransfer', {
    account: BTC.payment.address,
    recipientAddress: receiver,
    amount: '150000',
  })) as { txid: string }
  expect(txid).toMatch(/^[0-9a-f]{64}$/)
  await expect.poll(funded).toBe(before + 150_000)
  expect((await (await fetch(`${ESPLORA}/tx/${txid}`)).json()) as object).toMatchObject({
    status: { confirmed: true },
  })
})

test("a Bitcoin wallet without a configured chain: 'The connector does not support any of the requested chains'", async ({
  page,
}) => {
  // bip122 mainnet is configured; the dev wallet only has regtest.
  await openDemo(page, 'eip155:31337,bip122:000000000019d6689c085ae165831e93')
  page
    .evaluate(() =>
      (window as unknown as W).porthole.connect({ namespace: 'bip122' }).catch(() => {}),
    )
    .catch(() => {}) // still pending when the test ends
  await modal(page).getByRole('button', { name: 'Porthole Bitcoin Dev Wallet' }).click()
  await expect(
    modal(page).getByText('The connector does not support any of the requested chains'),
  ).toBeVisible()
})
