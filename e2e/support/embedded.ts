/**
 * Helpers for the embedded-wallet tests: the real mail catcher's JSON API, the wallet frame
 * inside the modal frame, and an e-mail login through the modal UI.
 */
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { expect, type FrameLocator, type Page } from '@playwright/test'
import { createWalletClient, type Hex, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { DEVNET_RPC, devnet, modal, URLS } from './fixtures.js'

export const MAIL_URL = URLS.mail
export const API_URL = URLS.api
export const RECOVERY_URL = URLS.recovery

const ROOT = resolve(import.meta.dirname, '../..')

/** Runs `npm run admin -- …` against the stack's database; its stdout. */
export function admin(...args: string[]): string {
  const run = spawnSync('npm', ['run', '--silent', 'admin', '--', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: process.env,
  })
  if (run.status !== 0) throw new Error(`admin ${args.join(' ')} failed: ${run.stderr}`)
  // An origin change reaches the frames' CSP through two caches of 1 s each (the API's projects,
  // the static servers' origins), and a trust change the wallet frame through the first: wait
  // them out, so the next page load sees it.
  if (args[0] === 'project' && ['allow', 'deny', 'trust', 'untrust'].includes(args[1] ?? ''))
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ORIGIN_CACHES_MS)
  return run.stdout
}

/** The API's project cache plus the static servers' origin cache, with a margin. */
const ORIGIN_CACHES_MS = 2_200

type Mail = { to: string; subject: string; text: string; date: string }

/**
 * A fresh address per test, so no two tests share a user (or a cooldown). At most 30
 * characters, so the Account view shows it whole (spec: longer ones are cut).
 */
export function freshEmail(tag: string): string {
  return `${tag.slice(0, 8)}-${Math.random().toString(36).slice(2, 10)}@ph.test`
}

/** Messages to `to`, newest first. */
export async function inbox(to: string): Promise<Mail[]> {
  const response = await fetch(`${MAIL_URL}/messages?to=${encodeURIComponent(to)}`)
  return (await response.json()) as Mail[]
}

/** Waits for the `count`-th message to `to` whose subject matches and returns it. */
export async function waitForMail(to: string, subject: RegExp, count = 1): Promise<Mail> {
  let found: Mail | undefined
  await expect
    .poll(
      async () => {
        const matching = (await inbox(to)).filter((m) => subject.test(m.subject))
        found = matching.length >= count ? matching[0] : undefined
        return matching.length
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(count)
  return found as Mail
}

/** The 6-digit code of the `count`-th code mail to `to`. */
export async function waitForCode(to: string, count = 1): Promise<string> {
  const mail = await waitForMail(to, /^Your Porthole code (for \S+ )?is \d{6}$/, count)
  return /(\d{6})/.exec(mail.subject)?.[1] as string
}

/** The embedded-wallet frame (inside the modal frame). */
export function walletFrame(page: Page): FrameLocator {
  return modal(page).frameLocator('iframe[title="Porthole embedded wallet"]')
}

/** Starts `porthole.connect()` (its outcome in `window.__connect`) and submits the e-mail. */
export async function startEmailConnect(page: Page, email: string): Promise<void> {
  await page.evaluate(`window.__connect = window.porthole.connect().then(
    (value) => ({ value }), (error) => ({ error: { code: error.code, message: error.message } })); undefined`)
  const field = modal(page).getByRole('textbox', { name: 'Email' })
  await field.fill(email)
  await field.press('Enter')
}

/** connect()'s outcome started by {@link startEmailConnect}. */
export function connectOutcome(page: Page): Promise<{
  value?: { address: string; chainId: number }
  error?: { code: number; message: string }
}> {
  return page.evaluate('window.__connect') as never
}

/** Enters a code in the modal's verification field. */
export async function enterCode(page: Page, code: string): Promise<void> {
  const field = modal(page).getByRole('textbox', { name: 'Verification code' })
  await field.fill(code)
}

/** A whole e-mail login on a device the user already approved (or a new user). */
export async function emailLogin(page: Page, email: string, codeCount = 1): Promise<string> {
  await startEmailConnect(page, email)
  await enterCode(page, await waitForCode(email, codeCount))
  const outcome = await connectOutcome(page)
  expect(outcome.error).toBeUndefined()
  return outcome.value?.address as string
}

/** Calls the SDK provider; resolves with `{ value }` or `{ error: { code, message } }`. */
export function providerRequest(
  page: Page,
  method: string,
  params: unknown[] = [],
): Promise<{ value?: unknown; error?: { code: number; message: string } }> {
  return page.evaluate(
    `window.porthole.getProvider('eip155').request(${JSON.stringify({ method, params })}).then(
      (value) => ({ value }), (error) => ({ error: { code: error.code, message: error.message } }))`,
  ) as never
}

/** anvil account 9 pays the embedded wallets' gas. */
const FUNDER = privateKeyToAccount(
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
)

/** Sends `ether` (default 1) to `address` on the first devnet and waits for it. */
export async function fund(address: string, ether = '1'): Promise<void> {
  const client = createWalletClient({ account: FUNDER, transport: http(DEVNET_RPC) })
  const hash = await client.sendTransaction({
    chain: null,
    to: address as Hex,
    value: parseEther(ether),
  })
  await devnet.waitForTransactionReceipt({ hash })
}

/**
 * Whether `signature` signs `message` for `address` as viem checks it: ECDSA for an EOA, ERC-1271
 * for a deployed smart account, ERC-6492 before deployment (embedded users are smart accounts
 * by default, spec §6).
 */
export function signsFor(address: string, message: string, signature: string): Promise<boolean> {
  return devnet.verifyMessage({
    address: address as Hex,
    message,
    signature: signature as Hex,
  })
}
