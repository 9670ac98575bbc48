/**
 * Test fixtures: a page of the demo dapp with the Porthole Dev Wallet injected (a real
 * EIP-6963 wallet signing with a devnet key), and helpers to reach the modal frame.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { test as base, expect, type FrameLocator, type Page } from '@playwright/test'
import { endpoints } from '@porthole/shared'
import { createPublicClient, http } from 'viem'

export { expect }

const ROOT = resolve(import.meta.dirname, '../..')
const DEV_WALLET = readFileSync(resolve(ROOT, 'apps/demo/dist/dev-wallet.js'), 'utf8')

/** The stack's addresses: the defaults, or the PORTHOLE_*_URL environment of a stack elsewhere. */
export const URLS = endpoints()
export const DEMO_URL = URLS.demo
export const MODAL_ORIGIN = URLS.modal
export const WALLET_ORIGIN = URLS.wallet
export const DEVNET_RPC = URLS.devnet
export const DEVNET_B_RPC = URLS.devnetB
/** anvil account 0, the dev wallet's default key. */
export const WALLET_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
export const OTHER_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

export const devnet = createPublicClient({ transport: http(DEVNET_RPC) })

/**
 * The init script that installs the Porthole Solana Dev Wallet (Wallet Standard, the local
 * chain's test account 0 unless `config.seed` says otherwise) in the top window only.
 */
export function solanaDevWalletScript(config: Record<string, unknown> = { mode: 'approve' }) {
  const code = readFileSync(resolve(ROOT, 'apps/demo/dist/dev-solana-wallet.js'), 'utf8')
  return `if (window.top === window) { window.portholeSolanaDevWalletConfig = ${JSON.stringify(config)};\n${code}\n}`
}

/** The init script of the Porthole Bitcoin Dev Wallet (regtest test account 0), top window only. */
export function bitcoinDevWalletScript(config: Record<string, unknown> = { mode: 'approve' }) {
  const code = readFileSync(resolve(ROOT, 'apps/demo/dist/dev-bitcoin-wallet.js'), 'utf8')
  return `if (window.top === window) { window.portholeBitcoinDevWalletConfig = ${JSON.stringify(config)};\n${code}\n}`
}

/** The init script that installs the dev wallet in the top window only. */
export function devWalletScript(config: Record<string, unknown> = { mode: 'approve' }): string {
  return `if (window.top === window) { window.portholeDevWalletConfig = ${JSON.stringify(config)};\n${DEV_WALLET}\n}`
}

/** The modal frame. */
export function modal(page: Page): FrameLocator {
  return page.frameLocator('iframe[title="Connect a wallet"]')
}

/** Waits until the SDK instance exists and its frame has completed the handshake. */
export async function waitForPorthole(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const p = (window as unknown as { porthole?: { getState(): { status: string } } }).porthole
    return !!p
  })
}

/** Reads `porthole.getState()`. */
export function state(page: Page) {
  return page.evaluate(() =>
    (
      window as unknown as { porthole: { getState(): Record<string, unknown> } }
    ).porthole.getState(),
  )
}

/** Connects through the modal UI, choosing the dev wallet; resolves with connect()'s result. */
export async function connectThroughModal(page: Page) {
  const result = page.evaluate(() =>
    (
      window as unknown as { porthole: { connect(): Promise<Record<string, unknown>> } }
    ).porthole.connect(),
  )
  await modal(page).getByRole('button', { name: 'Porthole Dev Wallet' }).click()
  return result
}

type Fixtures = { dapp: Page }

/** `dapp`: the demo page with the dev wallet (approving everything unless told otherwise). */
export const test = base.extend<Fixtures>({
  dapp: async ({ page }, use) => {
    await page.addInitScript(devWalletScript())
    await page.goto(DEMO_URL)
    await waitForPorthole(page)
    await use(page)
  },
})

/** Sets the dev wallet's answer to every prompt. */
export function walletMode(page: Page, mode: 'approve' | 'reject') {
  return page.evaluate(
    (m) =>
      (
        window as unknown as { portholeDevWallet: { setMode(m: string): void } }
      ).portholeDevWallet.setMode(m),
    mode,
  )
}
