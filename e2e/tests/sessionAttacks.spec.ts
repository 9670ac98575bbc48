/**
 * Issue 25, smart sessions attacked through the real wallet bundle in Chromium, the API, the
 * bundler and the devnet: a grant card that lied about NFTs (finding 4), a grant hidden from the
 * Account view (5), an allowance that outlived its session (7), and another site's page revoking
 * a session silently (8). Each attacker does all it can and the user trusts every card it is
 * shown (approves it); what counts is the outcome on chain and what the user was shown.
 */
import type { Page } from '@playwright/test'
import { DEVNET_COLLECTIONS } from '@porthole/shared'
import { portholeSessionsAbi } from '@porthole/shared/simpleAccount'
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  erc721Abi,
  type Hex,
  http,
  type PrivateKeyAccount,
  parseAbi,
  toHex,
} from 'viem'
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { API_URL, admin, fund, providerRequest, walletFrame } from '../support/embedded.js'
import {
  DEVNET_RPC,
  devnet,
  expect,
  modal,
  test,
  URLS,
  waitForPorthole,
} from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'
import { balanceOf, PUSD, pusd, sendPusd, smartAccountUser } from '../support/smartAccount.js'

const [PALS] = DEVNET_COLLECTIONS
/** Dev account 0 deployed Porthole Pals and may mint more. */
const PALS_OWNER = mnemonicToAccount('test test test test test test test test test test test junk')
const palsMintAbi = parseAbi([
  'function mint(address to) returns (uint256)',
  'function totalSupply() view returns (uint256)',
])

/** What the session key of `key` is on `smart`, as the chain holds it (nothing before deployment). */
async function sessionOnChain(smart: Address, key: Address) {
  if (!(await devnet.getCode({ address: smart })))
    return { target: null, spendLimit: 0n, spent: 0n, active: false }
  const [target, , spendLimit, spent, , , active] = await devnet.readContract({
    address: smart,
    abi: portholeSessionsAbi,
    functionName: 'sessions',
    args: [key],
  })
  return { target, spendLimit, spent, active }
}

/** The wallet frame's grant or revoke card, its text once shown. */
const card = (page: Page) => walletFrame(page).getByRole('dialog')

/**
 * Waits for whichever comes first: the wallet's card (answered `'card'`, its text kept) or the
 * request's answer. A trusting user approves (or rejects) the card and the request goes on.
 */
async function cardOrAnswer(
  page: Page,
  request: Promise<unknown>,
): Promise<{ shown: boolean; text: string }> {
  const shown = await Promise.race([
    request.then(() => false),
    card(page)
      .getByRole('button', { name: 'Approve' })
      .waitFor({ timeout: 30_000 })
      .then(() => true),
  ])
  return { shown, text: shown ? await card(page).innerText() : '' }
}

async function approveShownCard(page: Page): Promise<void> {
  await card(page).getByRole('button', { name: 'Approve' }).click()
}

/** The dapp's session call through the wallet: prepare, sign with its key, send, wait. */
async function sessionCall(
  page: Page,
  smart: Address,
  context: string,
  key: PrivateKeyAccount,
  call: { to: Address; data: Hex },
): Promise<{ id?: string; error?: { code: number; message: string } }> {
  const prepared = await providerRequest(page, 'wallet_prepareCalls', [
    {
      from: smart,
      chainId: '0x7a69',
      calls: [call],
      capabilities: { permissions: { context } },
    },
  ])
  if (prepared.error) return { error: prepared.error }
  const answer = prepared.value as {
    preparedCalls: unknown
    signatureRequest: { hash: Hex }
    context: string
  }
  const signature = await key.signMessage({ message: { raw: answer.signatureRequest.hash } })
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
    .toBeGreaterThanOrEqual(200)
  return { id }
}

/** A grant request of `key` for `permissions`, an hour long. */
const grantOf = (key: Address, permissions: unknown[], extra: Record<string, unknown> = {}) => ({
  expiry: Math.floor(Date.now() / 1000) + 3600,
  signer: { type: 'account', data: { id: key } },
  permissions,
  ...extra,
})

/** Sends `data` to `to` from `from` on the devnet; false when it reverts. */
async function tryTransaction(
  from: PrivateKeyAccount | typeof PALS_OWNER,
  to: Address,
  data: Hex,
): Promise<boolean> {
  try {
    const hash = await createWalletClient({
      account: from,
      transport: http(DEVNET_RPC),
    }).sendTransaction({ chain: null, to, data })
    return (await devnet.waitForTransactionReceipt({ hash })).status === 'success'
  } catch {
    return false
  }
}

const palOwner = (id: bigint) =>
  devnet.readContract({
    address: PALS.address,
    abi: erc721Abi,
    functionName: 'ownerOf',
    args: [id],
  })

/** Mints the smart account three new Porthole Pals (dev account 0 owns the collection); their ids. */
async function givePals(smart: Address): Promise<bigint[]> {
  const ids: bigint[] = []
  for (let i = 0; i < 3; i++) {
    expect(
      await tryTransaction(
        PALS_OWNER,
        PALS.address,
        encodeFunctionData({ abi: palsMintAbi, functionName: 'mint', args: [smart] }),
      ),
    ).toBe(true)
    ids.push(
      await devnet.readContract({
        address: PALS.address,
        abi: palsMintAbi,
        functionName: 'totalSupply',
      }),
    )
  }
  for (const id of ids) expect(await palOwner(id)).toBe(smart)
  return ids
}

test('finding 4: a grant of setApprovalForAll on Porthole Pals is refused before any card; the key cannot take the NFTs', async ({
  page,
}) => {
  const smart = await smartAccountUser(page)
  const ids = await givePals(smart)
  const key = privateKeyToAccount(generatePrivateKey())
  const thief = privateKeyToAccount(generatePrivateKey())
  await fund(thief.address, '0.1')
  const granting = providerRequest(page, 'wallet_grantPermissions', [
    grantOf(key.address, [
      {
        type: 'contract-call',
        data: { address: PALS.address, calls: ['setApprovalForAll(address,bool)'] },
      },
    ]),
  ])
  const shown = await cardOrAnswer(page, granting)
  if (shown.shown) {
    console.info(`finding 4, the card shown:\n${shown.text}`)
    await approveShownCard(page)
  }
  const granted = await granting
  if (!granted.error) {
    const { permissionsContext } = granted.value as { permissionsContext: string }
    await sessionCall(page, smart, permissionsContext, key, {
      to: PALS.address,
      data: encodeFunctionData({
        abi: erc721Abi,
        functionName: 'setApprovalForAll',
        args: [thief.address, true],
      }),
    })
    for (const id of ids)
      await tryTransaction(
        thief,
        PALS.address,
        encodeFunctionData({
          abi: erc721Abi,
          functionName: 'transferFrom',
          args: [smart, thief.address, id],
        }),
      )
  }
  for (const id of ids) expect(await palOwner(id)).toBe(smart)
  expect(shown.text).not.toContain('None')
  expect(shown.shown).toBe(false)
  expect(granted.error?.code).toBe(-32602)
  expect(granted.error?.message).toMatch(/setApprovalForAll/)
  expect((await sessionOnChain(smart, key.address)).active).toBe(false)
})

test('finding 4: an ERC-721 transferFrom grant is shown and metered as NFTs: 2 Pals move, the third is refused', async ({
  page,
}) => {
  const smart = await smartAccountUser(page)
  const ids = await givePals(smart)
  const key = privateKeyToAccount(generatePrivateKey())
  const receiver = privateKeyToAccount(generatePrivateKey()).address
  const granting = providerRequest(page, 'wallet_grantPermissions', [
    grantOf(key.address, [
      {
        type: 'contract-call',
        data: { address: PALS.address, calls: ['transferFrom(address,address,uint256)'] },
        policies: [
          { type: 'token-allowance', data: { allowance: '2' } },
          { type: 'recipient', data: { address: receiver } },
        ],
      },
    ]),
  ])
  const shown = await cardOrAnswer(page, granting)
  console.info(`finding 4, the NFT card shown:\n${shown.text}`)
  expect(shown.shown).toBe(true)
  expect(shown.text).toContain('Porthole Pals')
  expect(shown.text).toMatch(/transferFrom.*NFT/)
  expect(shown.text).toContain('2 NFTs')
  await approveShownCard(page)
  const granted = await granting
  expect(granted.error).toBeUndefined()
  const { permissionsContext } = granted.value as { permissionsContext: string }
  const send = (id: bigint) =>
    sessionCall(page, smart, permissionsContext, key, {
      to: PALS.address,
      data: encodeFunctionData({
        abi: erc721Abi,
        functionName: 'transferFrom',
        args: [smart, receiver, id],
      }),
    })
  const [a, b, c] = ids as [bigint, bigint, bigint]
  expect((await send(a)).error).toBeUndefined()
  expect((await send(b)).error).toBeUndefined()
  const third = await send(c)
  expect(third.error?.code).toBe(4100)
  expect(third.error?.message).toContain(
    "Over the session's spend limit: 1 NFT asked, 0 NFTs of 2 NFTs left",
  )
  expect(await palOwner(a)).toBe(receiver)
  expect(await palOwner(b)).toBe(receiver)
  expect(await palOwner(c)).toBe(smart)
  expect((await sessionOnChain(smart, key.address)).spent).toBe(2n)
})

test('finding 5: a grant padded with 20 KB of unknown JSON is refused before the card; nothing is installed', async ({
  page,
}) => {
  const smart = await smartAccountUser(page)
  const key = privateKeyToAccount(generatePrivateKey())
  const granting = providerRequest(page, 'wallet_grantPermissions', [
    grantOf(key.address, [
      {
        type: 'erc20-token-transfer',
        data: { address: PUSD.address, ticker: 'pUSD', note: 'x'.repeat(20_000) },
        policies: [{ type: 'token-allowance', data: { allowance: toHex(pusd('10')) } }],
      },
    ]),
  ])
  const shown = await cardOrAnswer(page, granting)
  if (shown.shown) await approveShownCard(page)
  const granted = await granting
  const installed = (await sessionOnChain(smart, key.address)).active
  const listed = (await (
    await fetch(`${API_URL}/v1/sessions/eip155:31337:${smart}?projectId=porthole-demo`, {
      headers: { origin: URLS.demo },
    })
  ).json()) as { pcis: { pci: string }[] }
  console.info(
    `finding 5: card shown ${shown.shown}, answer ${JSON.stringify(granted.error ?? 'granted')}, installed ${installed}, listed ${listed.pcis.length}`,
  )
  // Installed means listed: a session the Account view cannot show cannot be revoked there.
  expect(installed).toBe(listed.pcis.some((row) => row.pci === key.address.toLowerCase()))
  expect(installed).toBe(false)
  expect(shown.shown).toBe(false)
  expect(granted.error?.code).toBe(-32602)
  expect(granted.error?.message).toMatch(/data\.note/)
})

test('finding 5: when the API refuses the registration, the grant fails and nothing is installed', async ({
  page,
}) => {
  const smart = await smartAccountUser(page)
  await sendPusd(smart, pusd('5'))
  const key = privateKeyToAccount(generatePrivateKey())
  let refused = 0
  await page.route(`${API_URL}/v1/sessions/**`, (route) => {
    if (route.request().method() !== 'POST') return route.continue()
    refused++
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'Injected outage' } }),
    })
  })
  const granting = providerRequest(page, 'wallet_grantPermissions', [
    grantOf(key.address, [
      {
        type: 'erc20-token-transfer',
        data: { address: PUSD.address, ticker: 'pUSD' },
        policies: [{ type: 'token-allowance', data: { allowance: toHex(pusd('5')) } }],
      },
    ]),
  ])
  const shown = await cardOrAnswer(page, granting)
  expect(shown.shown).toBe(true)
  await approveShownCard(page)
  const granted = await granting
  console.info(
    `finding 5 (registration refused ${refused}×): answer ${JSON.stringify(granted.error ?? granted.value)}`,
  )
  expect(refused).toBeGreaterThan(0)
  expect((await sessionOnChain(smart, key.address)).active).toBe(false)
  expect(granted.error).toBeDefined()
  expect(granted.error?.message).toMatch(/not granted/i)
})

test('finding 7: a key granted approve cannot leave a thief an allowance that outlives the revoke (1,000 pUSD)', async ({
  page,
}) => {
  const smart = await smartAccountUser(page)
  await sendPusd(smart, pusd('1000'))
  const key = privateKeyToAccount(generatePrivateKey())
  const thief = privateKeyToAccount(generatePrivateKey())
  await fund(thief.address, '0.1')
  const granting = providerRequest(page, 'wallet_grantPermissions', [
    grantOf(key.address, [
      {
        type: 'contract-call',
        data: {
          address: PUSD.address,
          calls: ['transfer(address,uint256)', 'approve(address,uint256)'],
        },
        policies: [{ type: 'token-allowance', data: { allowance: toHex(pusd('1000')) } }],
      },
    ]),
  ])
  const shown = await cardOrAnswer(page, granting)
  if (shown.shown) {
    console.info(`finding 7, the card shown:\n${shown.text}`)
    await approveShownCard(page)
  }
  const granted = await granting
  if (!granted.error) {
    const { permissionsContext } = granted.value as { permissionsContext: string }
    await sessionCall(page, smart, permissionsContext, key, {
      to: PUSD.address,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [thief.address, pusd('1000')],
      }),
    })
    const revoked = providerRequest(page, 'wallet_revokePermissions', [{ permissionsContext }])
    if ((await cardOrAnswer(page, revoked)).shown) await approveShownCard(page)
    expect((await revoked).error).toBeUndefined()
    expect((await sessionOnChain(smart, key.address)).active).toBe(false)
  }
  await tryTransaction(
    thief,
    PUSD.address,
    encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transferFrom',
      args: [smart, thief.address, pusd('1000')],
    }),
  )
  console.info(`finding 7: the thief holds ${await balanceOf(thief.address)} pUSD base units`)
  expect(await balanceOf(thief.address)).toBe(0n)
  expect(await balanceOf(smart)).toBe(pusd('1000'))
  expect(shown.shown).toBe(false)
  expect(granted.error?.code).toBe(-32602)
  expect(granted.error?.message).toMatch(/approve/)
})

test.describe('finding 8: another site', () => {
  const siteB = { url: '', close: async () => {} }
  test.beforeAll(async () => {
    const port = Number(new URL(URLS.demo).port) + 19
    const host = await startHostPage(
      port,
      null,
      'localhost',
      `<!doctype html><title>Site B</title>
<script src="${URLS.modal}/sdk.js" data-project-id="porthole-demo" data-networks="eip155:31337"
  data-default-account-types='{"eip155":"smartAccount"}'></script>`,
    )
    Object.assign(siteB, host)
    admin('project', 'allow', 'porthole-demo', host.url)
  })
  test.afterAll(async () => {
    admin('project', 'deny', 'porthole-demo', siteB.url)
    await siteB.close()
  })

  test('a page of site B revoking the session granted to site A gets a card; rejecting keeps the session, site A revokes its own without one', async ({
    page,
  }) => {
    const smart = await smartAccountUser(page)
    const key = privateKeyToAccount(generatePrivateKey())
    const granting = providerRequest(page, 'wallet_grantPermissions', [
      grantOf(key.address, [
        {
          type: 'erc20-token-transfer',
          data: { address: PUSD.address, ticker: 'pUSD' },
          policies: [{ type: 'token-allowance', data: { allowance: toHex(pusd('1')) } }],
        },
      ]),
    ])
    const asked = Date.now()
    expect((await cardOrAnswer(page, granting)).shown).toBe(true)
    const shownAt = Date.now()
    await approveShownCard(page)
    const granted = await granting
    expect(granted.error).toBeUndefined()
    console.info(
      `grant: card after ${shownAt - asked} ms; listed, installed and answered ${Date.now() - shownAt} ms after it was shown (arming delay and click included)`,
    )
    const { permissionsContext } = granted.value as { permissionsContext: string }

    // The same user, same browser, on site B (same site: the wallet is already unlocked).
    await page.goto(siteB.url)
    await waitForPorthole(page)
    const connected = await providerRequest(page, 'eth_requestAccounts')
    expect(connected.value).toEqual([smart])
    const revoking = providerRequest(page, 'wallet_revokePermissions', [{ permissionsContext }])
    const shown = await cardOrAnswer(page, revoking)
    if (shown.shown) {
      console.info(`finding 8, the card shown on site B:\n${shown.text}`)
      expect(shown.text).toContain(URLS.demo)
      await card(page).getByRole('button', { name: 'Reject' }).click()
    }
    const answer = await revoking
    console.info(`finding 8: card ${shown.shown}, answer ${JSON.stringify(answer)}`)
    expect((await sessionOnChain(smart, key.address)).active).toBe(true)
    expect(shown.shown).toBe(true)
    expect(answer.error?.code).toBe(4001)
    await expect(modal(page).locator('body')).toBeAttached()

    // Site A revokes its own session: no card.
    await page.goto(`${URLS.demo}/?accountType=smartAccount`)
    await waitForPorthole(page)
    expect((await providerRequest(page, 'eth_requestAccounts')).value).toEqual([smart])
    const own = providerRequest(page, 'wallet_revokePermissions', [{ permissionsContext }])
    expect((await cardOrAnswer(page, own)).shown).toBe(false)
    expect((await own).error).toBeUndefined()
    expect((await sessionOnChain(smart, key.address)).active).toBe(false)
  })
})
