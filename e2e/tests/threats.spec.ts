/**
 * Issue 25's audit: attacks on surfaces no other fix covers, by a hostile host page on an allowed
 * origin (here the demo page replacing its own Porthole), against the real stack (modal, wallet
 * frame, API, bundler, devnets) in Chromium.
 */
import type { Page } from '@playwright/test'
import { portholeSessionsAbi } from '@porthole/shared'
import { DEVNET_AA } from '@porthole/shared/devnet'
import { SESSION_KIND } from '@porthole/shared/simpleAccount'
import { encodeFunctionData, type Hex, maxUint256, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import {
  emailLogin,
  freshEmail,
  fund,
  inbox,
  providerRequest,
  RECOVERY_URL,
  waitForMail,
  walletFrame,
} from '../support/embedded.js'
import {
  DEMO_URL,
  devnet,
  expect,
  OTHER_ADDRESS,
  test,
  URLS,
  waitForPorthole,
} from '../support/fixtures.js'

const card = (page: Page, name: string) => walletFrame(page).getByRole('dialog', { name })

/** The demo page, its Porthole replaced by one with the host's own `networks` option. */
async function hostWithNetworks(page: Page, networks: unknown[]): Promise<void> {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  await page.evaluate(`window.porthole.destroy()
    window.porthole = Porthole.createPorthole({ projectId: 'porthole-demo', networks: ${JSON.stringify(networks)} })`)
  await waitForPorthole(page)
}

test('a host page that calls the devnet ETH a 36-decimal currency: the card still shows 1 ETH', async ({
  page,
}) => {
  await hostWithNetworks(page, [
    {
      id: 31337,
      name: 'Free test network',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 36 },
      rpcUrls: { default: { http: [] } },
    },
  ])
  const address = (await emailLogin(page, freshEmail('decimals'))) as Hex
  await fund(address, '2')
  const sending = providerRequest(page, 'eth_sendTransaction', [
    { from: address, to: OTHER_ADDRESS, value: '0xde0b6b3a7640000' },
  ])
  const shown = card(page, 'Send transaction')
  await expect(shown).toBeVisible()
  // Was: "Network Free test network (chain 31337) … Amount 0.000000000000000001 ETH … Balance
  // changes −0.000000000000000001 ETH" for this 1 ETH transfer.
  await expect(shown).toContainText(/Network\s*Porthole Devnet \(chain 31337\)/)
  await expect(shown).toContainText(/Amount\s*1 ETH/)
  await expect(shown).toContainText('−1 ETH')
  await shown.getByRole('button', { name: 'Reject' }).click()
  expect((await sending).error).toMatchObject({ code: 4001 })
  expect(await devnet.getBalance({ address })).toBe(2n * 10n ** 18n)
})

test("a host page asks the smart account to call itself (grantSession to the host's key): refused, no card, no session on chain", async ({
  page,
}) => {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  const smart = (await emailLogin(page, freshEmail('selfcall'))) as Hex
  const thief = privateKeyToAccount(generatePrivateKey()).address
  const grant = encodeFunctionData({
    abi: portholeSessionsAbi,
    functionName: 'grantSession',
    args: [
      thief,
      '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      ['0xa9059cbb'],
      OTHER_ADDRESS,
      maxUint256,
      0,
      2 ** 47,
      SESSION_KIND.erc20,
      DEVNET_AA.paymaster,
    ],
  })
  const sending = providerRequest(page, 'wallet_sendCalls', [
    {
      version: '2.0.0',
      chainId: toHex(31337),
      from: smart,
      atomicRequired: true,
      calls: [{ to: smart, data: grant }],
    },
  ])
  // Was: a "Send calls" card (To: the user's own account, Amount 0 ETH, gas sponsored, no
  // warning); one click on Approve installed the session, spend limit 2^256 − 1.
  const outcome = await Promise.race([
    sending,
    card(page, 'Send calls')
      .waitFor({ timeout: 10_000 })
      .then(() => 'card shown'),
  ])
  expect(outcome).toMatchObject({ error: { code: 4100 } })
  await expect(card(page, 'Send calls')).toHaveCount(0)
  if ((await devnet.getCode({ address: smart })) !== undefined) {
    const session = await devnet.readContract({
      address: smart,
      abi: portholeSessionsAbi,
      functionName: 'sessions',
      args: [thief],
    })
    expect(session[6]).toBe(false)
  }
})

test('a host page asks to sign a sign-in message for another site: refused, no card', async ({
  page,
}) => {
  await page.goto(DEMO_URL)
  await waitForPorthole(page)
  const address = (await emailLogin(page, freshEmail('siwe'))) as Hex
  const message = [
    'bank.example wants you to sign in with your Ethereum account:',
    address,
    '',
    '',
    'URI: https://bank.example',
    'Version: 1',
    'Chain ID: 31337',
    'Nonce: k2Jf8sLq0aZ',
    `Issued At: ${new Date().toISOString()}`,
  ].join('\n')
  const signing = providerRequest(page, 'personal_sign', [toHex(message), address])
  // Was: a "Sign message" card with the text and no warning; approved, the host got a sign-in to
  // bank.example as the user.
  const outcome = await Promise.race([
    signing,
    card(page, 'Sign message')
      .waitFor({ timeout: 10_000 })
      .then(() => 'card shown'),
  ])
  expect(outcome).toMatchObject({ error: { code: 4100 } })
})

test('a stranger has the recovery service mail an approval claiming a site the demo project does not allow: refused, nothing mailed; an allowed site is named', async () => {
  const { publicKey } = await crypto.subtle.generateKey(
    { name: 'ECDSA', namedCurve: 'P-256' },
    true,
    ['sign', 'verify'],
  )
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', publicKey)
  const ask = (email: string, site: string) =>
    fetch(`${RECOVERY_URL}/v1/recovery/approvals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: URLS.wallet },
      body: JSON.stringify({
        projectId: 'porthole-demo',
        email,
        site,
        devicePublicKey: { kty, crv, x, y },
      }),
    })
  const victim = freshEmail('claimed')
  const refused = await ask(victim, 'https://wallet-security-check.example')
  expect(refused.status).toBe(403)
  expect(await refused.json()).toMatchObject({ code: 'SITE_NOT_ALLOWED' })
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(await inbox(victim)).toHaveLength(0)
  const allowed = await ask(victim, DEMO_URL)
  expect(allowed.status).toBe(200)
  expect((await waitForMail(victim, /new device/)).text).toContain(`Site: ${DEMO_URL}`)
})
