/**
 * Every namespace, several wallets (issue 12): WalletConnect sessions with Solana accounts
 * (beside EVM ones, or alone), signing on the local Solana chain through
 * `getProvider('solana')`, and state that names every connection.
 */
import { ed25519 } from '@noble/curves/ed25519'
import type { Page } from '@playwright/test'
import { SOLANA_LOCALNET_CAIP, SOLANA_TEST_ACCOUNTS } from '@porthole/shared'
import { base58 } from '@scure/base'
import {
  PublicKey,
  Connection as SolanaConnection,
  SystemProgram,
  Transaction,
} from '@solana/web3.js'
import { emailLogin, freshEmail, walletFrame } from '../support/embedded.js'
import { DEMO_URL, expect, state, test, URLS, waitForPorthole } from '../support/fixtures.js'
import { startPairing } from '../support/pairing.js'
import { startTestWallet, type TestWallet } from '../support/testWallet.js'

/** anvil account 2; Solana test account 1. */
const KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'
const ADDRESS = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const SOLANA = SOLANA_TEST_ACCOUNTS[1]
const NETWORKS = `eip155:31337,${SOLANA_LOCALNET_CAIP}`
const SOLANA_RPC = URLS.solana
const solanaRpc = new SolanaConnection(SOLANA_RPC, 'confirmed')

type SolanaProvider = { request(a: { method: string; params?: unknown }): Promise<unknown> }
type W = Window & {
  porthole: {
    connect(o?: unknown): Promise<Record<string, unknown>>
    getState(): Record<string, unknown>
    getProvider(ns: string): SolanaProvider
    on(e: string, l: (x: unknown) => void): void
  }
}

let wallet: TestWallet | undefined
test.afterEach(async () => {
  await wallet?.close()
  wallet = undefined
})

/** Opens the demo with both networks, starts connect() and pairs `wallet` through the QR view. */
async function pairWithWallet(page: Page, next: TestWallet) {
  await next.pair(await startPairing(page, `${DEMO_URL}/?networks=${NETWORKS}`))
  return (await page.evaluate('window.__connect')) as {
    value?: Record<string, unknown>
    error?: unknown
  }
}

/** A base58 message signed through `getProvider('solana')`, checked against the public key. */
async function signsSolanaMessage(page: Page, address: string) {
  const message = new TextEncoder().encode('Porthole says hello to Solana')
  const answer = (await page.evaluate(
    ([m, pubkey]) =>
      (window as unknown as W).porthole
        .getProvider('solana')
        .request({ method: 'solana_signMessage', params: { message: m, pubkey } }),
    [base58.encode(message), address],
  )) as { signature: string }
  expect(ed25519.verify(base58.decode(answer.signature), message, base58.decode(address))).toBe(
    true,
  )
}

test('a WalletConnect wallet approving eip155 + solana: both connections, each provider signs', async ({
  page,
}) => {
  wallet = await startTestWallet({ privateKey: KEY, solanaSeed: SOLANA.seed })
  const outcome = await pairWithWallet(page, wallet)
  expect(outcome.value).toMatchObject({ address: ADDRESS, caipNetworkId: 'eip155:31337' })
  const current = await state(page)
  expect(current.connections).toEqual(
    expect.arrayContaining([
      {
        connectorId: 'walletConnect',
        namespace: 'eip155',
        address: ADDRESS,
        caipAddress: `eip155:31337:${ADDRESS}`,
        active: true,
      },
      {
        connectorId: 'walletConnect',
        namespace: 'solana',
        address: SOLANA.address,
        caipAddress: `${SOLANA_LOCALNET_CAIP}:${SOLANA.address}`,
        active: true,
      },
    ]),
  )
  expect(current).toMatchObject({ address: ADDRESS, caipNetworkId: 'eip155:31337' })
  await signsSolanaMessage(page, SOLANA.address)
  expect(
    await page.evaluate(() =>
      (window as unknown as W).porthole
        .getProvider('solana')
        .request({ method: 'solana_getAccounts' }),
    ),
  ).toEqual([{ pubkey: SOLANA.address }])
})

test('a Solana-only WalletConnect session is a valid connection; a SOL transfer lands on the chain', async ({
  page,
}) => {
  wallet = await startTestWallet({
    privateKey: KEY,
    solanaSeed: SOLANA.seed,
    namespaces: ['solana'],
  })
  const outcome = await pairWithWallet(page, wallet)
  expect(outcome.value).toEqual({
    address: SOLANA.address,
    caipAddress: `${SOLANA_LOCALNET_CAIP}:${SOLANA.address}`,
    caipNetworkId: SOLANA_LOCALNET_CAIP,
    chainId: SOLANA_LOCALNET_CAIP.split(':')[1],
  })
  expect(await state(page)).toMatchObject({
    status: 'connected',
    address: SOLANA.address,
    caipNetworkId: SOLANA_LOCALNET_CAIP,
    connections: [{ namespace: 'solana', address: SOLANA.address, active: true }],
  })
  // The EVM provider has no account: nothing leaks across namespaces.
  expect(
    await page.evaluate(() =>
      (window as unknown as W).porthole.getProvider('eip155').request({ method: 'eth_accounts' }),
    ),
  ).toEqual([])

  const to = SOLANA_TEST_ACCOUNTS[2].address
  const before = await solanaRpc.getBalance(new PublicKey(to))
  const transfer = await solTransfer(SOLANA.address, to, 12_345_678)
  const transaction = transfer.base64
  const { signature } = (await page.evaluate(
    (tx) =>
      (window as unknown as W).porthole
        .getProvider('solana')
        .request({ method: 'solana_signAndSendTransaction', params: { transaction: tx } }),
    transaction,
  )) as { signature: string }
  await solanaRpc.confirmTransaction({ signature, ...transfer }, 'confirmed')
  expect(await solanaRpc.getBalance(new PublicKey(to))).toBe(before + 12_345_678)
})

/** A SOL transfer from `from`, unsigned, base64 (for `solana_signAndSendTransaction`). */
async function solTransfer(from: string, to: string, lamports: number) {
  const { blockhash, lastValidBlockHeight } = await solanaRpc.getLatestBlockhash()
  const transaction = new Transaction({
    feePayer: new PublicKey(from),
    blockhash,
    lastValidBlockHeight,
  }).add(
    SystemProgram.transfer({
      fromPubkey: new PublicKey(from),
      toPubkey: new PublicKey(to),
      lamports,
    }),
  )
  return {
    blockhash,
    lastValidBlockHeight,
    base64: transaction
      .serialize({ requireAllSignatures: false, verifySignatures: false })
      .toString('base64'),
  }
}

test('an embedded login gives an EVM and a Solana address and signs on both, with the approval card', async ({
  page,
}) => {
  await page.goto(`${DEMO_URL}/?networks=${NETWORKS}`)
  await waitForPorthole(page)
  const evmAddress = await emailLogin(page, freshEmail('solana'))
  const current = await state(page)
  const connections = current.connections as { namespace: string; address: string }[]
  expect(connections.map((c) => c.namespace).sort()).toEqual(['eip155', 'solana'])
  expect(connections.find((c) => c.namespace === 'eip155')?.address).toBe(evmAddress)
  const solanaAddress = connections.find((c) => c.namespace === 'solana')?.address as string
  expect(solanaAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
  expect(current).toMatchObject({ address: evmAddress, connector: { type: 'AUTH' } })

  // A message: the wallet frame shows it; Approve signs with the Solana key.
  const text = 'Porthole says hello to Solana'
  const signing = page.evaluate(
    ([m, pubkey]) =>
      (window as unknown as W).porthole
        .getProvider('solana')
        .request({ method: 'solana_signMessage', params: { message: m, pubkey } }),
    [base58.encode(new TextEncoder().encode(text)), solanaAddress],
  ) as Promise<{ signature: string }>
  const card = walletFrame(page).getByRole('dialog', { name: 'Sign message' })
  await expect(card).toContainText(text)
  await card.getByRole('button', { name: 'Approve' }).click()
  const { signature } = await signing
  expect(
    ed25519.verify(
      base58.decode(signature),
      new TextEncoder().encode(text),
      base58.decode(solanaAddress),
    ),
  ).toBe(true)

  // A SOL transfer, after the local chain's faucet funds the new account.
  const airdrop = await solanaRpc.requestAirdrop(new PublicKey(solanaAddress), 2_000_000_000)
  await solanaRpc.confirmTransaction(airdrop, 'confirmed')
  const to = SOLANA_TEST_ACCOUNTS[2].address
  const before = await solanaRpc.getBalance(new PublicKey(to))
  const transfer = await solTransfer(solanaAddress, to, 250_000_000)
  const sending = page.evaluate(
    (tx) =>
      (window as unknown as W).porthole
        .getProvider('solana')
        .request({ method: 'solana_signAndSendTransaction', params: { transaction: tx } }),
    transfer.base64,
  ) as Promise<{ signature: string }>
  const txCard = walletFrame(page).getByRole('dialog', { name: 'Send transaction' })
  await expect(txCard).toContainText('0.25')
  await expect(txCard).toContainText(to.slice(0, 4))
  await txCard.getByRole('button', { name: 'Approve' }).click()
  const sent = await sending
  await solanaRpc.confirmTransaction({ signature: sent.signature, ...transfer }, 'confirmed')
  expect(await solanaRpc.getBalance(new PublicKey(to))).toBe(before + 250_000_000)
})
