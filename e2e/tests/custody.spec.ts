/**
 * Issue 10, custody: no single party rebuilds a key. Each test attacks the real services of the
 * running stack (API, recovery key service, their data folders) from one party's position — the
 * API operator, a session thief, whoever holds one data folder — and checks the honest flows
 * that replace the old ones: a new site recovers with the recovery service's own e-mail
 * approval (automatic) or with the user's passkey (user-held), and the key can be exported.
 */
import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BrowserContext, Page } from '@playwright/test'
import { decryptShare, loadAuthKeys, openDatabase } from '@porthole/api'
import { combine } from 'shamir-secret-sharing'
import { bytesToHex, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts'
import {
  API_URL,
  admin,
  connectOutcome,
  emailLogin,
  enterCode,
  freshEmail,
  inbox,
  providerRequest,
  RECOVERY_URL,
  signsFor,
  startEmailConnect,
  waitForCode,
  waitForMail,
  walletFrame,
} from '../support/embedded.js'
import { DEMO_URL, expect, modal, state, test, waitForPorthole } from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'
import { closePage } from '../support/pages.js'

/** A second host site: another site than the demo's localhost, so a new storage partition. */
const SITE_2_PORT = 4016
const SITE_2 = `http://site2.localhost:${SITE_2_PORT}`

async function openDemo(page: Page, query = ''): Promise<void> {
  await page.goto(`${DEMO_URL}/${query}`)
  await waitForPorthole(page)
}

/** A virtual authenticator with PRF on this page (it serves the page's frames, across navigations). */
async function addPasskeyAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf: true,
      automaticPresenceSimulation: true,
    },
  })
}

const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'))

/** What a key candidate signs as, or null when the bytes are not a key at all. */
async function signerOf(candidate: () => Promise<Uint8Array>): Promise<string | null> {
  try {
    const key = await candidate()
    if (key.length !== 32) return null
    return privateKeyToAddress(bytesToHex(key))
  } catch {
    return null
  }
}

/** The API's data folder (database and keys) of the running stack. */
function apiDataFolder(): { databaseUrl: string; dir: string } {
  const databaseUrl = process.env.PORTHOLE_DATABASE_URL as string
  return { databaseUrl, dir: dirname(fileURLToPath(databaseUrl.replace(/^file:/, 'file://'))) }
}

/** Everything the API operator holds about a user: the stored row and the decrypted auth share. */
async function apiOperatorView(email: string) {
  const { databaseUrl, dir } = apiDataFolder()
  const db = await openDatabase({ url: databaseUrl })
  const [row] = await db.query<{
    id: string
    auth_share: string
    recovery_ciphertext: string
    recovery_kind: string
  }>(
    `SELECT u.id, s.auth_share, s.recovery_ciphertext, s.recovery_kind
     FROM auth_users u JOIN auth_shares s ON s.user_id = u.id WHERE u.email = ?`,
    [email],
  )
  await db.close()
  if (!row) throw new Error(`No shares for ${email}`)
  const keys = loadAuthKeys({ keyDir: dir })
  return { ...row, authShare: bytes(decryptShare(keys.shareKey, row.auth_share, row.id)), dir }
}

/** POST to the recovery key service as anyone may (no browser, no wallet frame). */
async function recoveryPost(path: string, body: unknown) {
  const response = await fetch(`${RECOVERY_URL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ projectId: 'porthole-demo', ...(body as object) }),
  })
  return { status: response.status, body: (await response.json().catch(() => ({}))) as never }
}

/** A P-256 device key, as an attacker would make one. */
async function attackerKey() {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const { x, y } = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as {
    x: string
    y: string
  }
  return { publicJwk: { kty: 'EC', crv: 'P-256', x, y }, privateKey: pair.privateKey }
}

async function sign(privateKey: CryptoKey, payload: string): Promise<string> {
  const signature = await crypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    privateKey,
    new TextEncoder().encode(payload),
  )
  return Buffer.from(signature).toString('base64url')
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url')

test.describe('no single party rebuilds a key', () => {
  test('(a) the API operator — its database, its keys, its mail — cannot get the recovery share out of the recovery service', async ({
    page,
  }) => {
    await openDemo(page)
    const email = freshEmail('operator')
    const address = await emailLogin(page, email)
    const view = await apiOperatorView(email)
    expect(view.recovery_kind).toBe('automatic')
    const recoveryCiphertext = bytes(view.recovery_ciphertext)
    // One share and ciphertext make no key, whatever is tried.
    for (const candidate of [
      () => combine([view.authShare]),
      () => combine([view.authShare, view.authShare]),
      () => combine([view.authShare, recoveryCiphertext]),
      () =>
        combine([
          view.authShare,
          recoveryCiphertext.subarray(recoveryCiphertext.length - view.authShare.length),
        ]),
    ])
      expect(await signerOf(candidate)).not.toBe(address)

    // The API no longer signs tickets, and the recovery service no longer reads any.
    expect((await fetch(`${API_URL}/auth/v1/jwks.json?projectId=porthole-demo`)).status).toBe(404)
    const ticket = await recoveryPost('/v1/recovery/decrypt', {
      ticket: 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2ln',
      ciphertext: view.recovery_ciphertext,
    })
    expect(ticket.status).toBe(400)

    // The operator asks for an e-mail approval with its own device key: the link goes to the
    // user's mailbox, and an unapproved approval opens nothing.
    const key = await attackerKey()
    // A site the project does not allow is not even mailed (issue 25); one it allows is.
    const foreign = await recoveryPost('/v1/recovery/approvals', {
      email,
      site: 'https://evil.example',
      devicePublicKey: key.publicJwk,
    })
    expect(foreign.status).toBe(403)
    const started = await recoveryPost('/v1/recovery/approvals', {
      email,
      site: DEMO_URL,
      devicePublicKey: key.publicJwk,
    })
    expect(started.status).toBe(200)
    const { approvalId } = started.body as { approvalId: string }
    const payload = `porthole-recovery:decrypt:v1\n${approvalId}\n${digest(view.recovery_ciphertext)}`
    const pending = await recoveryPost('/v1/recovery/decrypt', {
      ciphertext: view.recovery_ciphertext,
      proof: { kind: 'email', approvalId, signature: await sign(key.privateKey, payload) },
    })
    expect(pending.status).toBeGreaterThanOrEqual(400)
    expect(JSON.stringify(pending.body)).not.toContain('share')
    // The user was told, with the site and address that asked.
    const mail = await waitForMail(email, /^Approve a new device/)
    expect(mail.text).toContain(`Site: ${DEMO_URL}`)
  })

  test('(b) a stolen session gets one share at most, cannot overwrite the shares (d), and the wallet keeps working', async ({
    page,
  }) => {
    await openDemo(page)
    const email = freshEmail('thief')
    let token = ''
    page.on('response', async (response) => {
      if (response.url().includes('/auth/v1/email/verify') && response.ok())
        token = ((await response.json()) as { token: string }).token
    })
    const address = await emailLogin(page, email)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const query = '?projectId=porthole-demo&st=porthole-wallet&sv=0.1.0'

    // What the thief can read: the auth share and the recovery ciphertext (the login is fresh).
    const shares = (await (
      await fetch(`${API_URL}/auth/v1/shares${query}`, { headers: auth })
    ).json()) as {
      setId: string
      authShare: string
      recovery: { ciphertext: string }
    }
    expect(await signerOf(() => combine([bytes(shares.authShare)]))).not.toBe(address)
    // No ticket to take to the recovery service.
    expect(
      (await fetch(`${API_URL}/auth/v1/recovery/ticket${query}`, { method: 'POST', headers: auth }))
        .status,
    ).toBe(404)

    // (d) Junk shares, or shares signed by the thief's own key, are refused: nothing is bricked.
    const thief = privateKeyToAccount(generatePrivateKey())
    for (const body of [
      {
        setId: 'junk-set-0001',
        replaces: shares.setId,
        deviceX: 7,
        address: address.toLowerCase(),
        authShare: Buffer.from('junk').toString('base64'),
        recovery: { kind: 'automatic', ciphertext: Buffer.from('junk').toString('base64') },
        signature: await thief.signMessage({ message: 'replace the shares' }),
      },
    ]) {
      const put = await fetch(`${API_URL}/auth/v1/shares${query}`, {
        method: 'PUT',
        headers: auth,
        body: JSON.stringify(body),
      })
      expect(put.status).toBe(400)
      expect(await put.json()).toMatchObject({ code: 'INVALID_SHARES_SIGNATURE' })
    }
    const after = (await (
      await fetch(`${API_URL}/auth/v1/shares${query}`, { headers: auth })
    ).json()) as {
      setId: string
      authShare: string
    }
    expect(after).toMatchObject({ setId: shares.setId, authShare: shares.authShare })

    // The wallet still signs after a reload (device share + auth share).
    await page.reload()
    await waitForPorthole(page)
    await expect.poll(async () => (await state(page)).status, { timeout: 20_000 }).toBe('connected')
    const signing = providerRequest(page, 'personal_sign', ['0x6f6b', address])
    await walletFrame(page).getByRole('button', { name: 'Approve' }).click()
    expect(await signsFor(address, 'ok', (await signing).value as Hex)).toBe(true)
  })

  test('(c) one data folder alone: the API folder has no recovery key, the recovery folder nothing to open', async ({
    page,
  }) => {
    await openDemo(page)
    const email = freshEmail('folder')
    const address = await emailLogin(page, email)
    const view = await apiOperatorView(email)
    // The API's folder holds its database and its own key, not the recovery service's.
    const files = readdirSync(view.dir)
    expect(files.some((file) => /recovery/.test(file))).toBe(false)
    expect(files).toContain('api-share.key')
    // …and the recovery service's folder holds only its key: no user, no ciphertext, no share.
    const recoveryDir = process.env.PORTHOLE_RECOVERY_DATA_DIR as string
    expect(recoveryDir).toBeTruthy()
    expect(dirname(recoveryDir)).not.toBe(view.dir)
    expect(readdirSync(recoveryDir).filter((file) => !/^recovery.*\.key$/.test(file))).toEqual([])
    expect(await signerOf(() => combine([view.authShare]))).not.toBe(address)
  })

  test('a host page cannot use the wallet origin’s passkeys', async ({ page, context }) => {
    await addPasskeyAuthenticator(context, page)
    await openDemo(page)
    const answer = await page.evaluate(async () => {
      try {
        await navigator.credentials.get({
          publicKey: { challenge: new Uint8Array(32), rpId: 'wallet.localhost' },
        })
        return 'got a credential'
      } catch (error) {
        return (error as Error).name
      }
    })
    expect(answer).toBe('SecurityError')
  })
})

test.describe('recovery on a new site', () => {
  test.beforeAll(() => {
    admin('project', 'allow', 'porthole-demo', SITE_2)
    // Vetted, so the new site's signature is approved in the page (elsewhere: the wallet window).
    admin('project', 'trust', 'porthole-demo', SITE_2)
  })
  test.afterAll(() => {
    admin('project', 'deny', 'porthole-demo', SITE_2)
  })

  test('automatic: one code, then the device approved from the recovery service’s own mail (GET shows, POST approves); the user is mailed', async ({
    page,
    context,
  }) => {
    const host = await startHostPage(SITE_2_PORT, 'porthole-demo', 'site2.localhost')
    try {
      await openDemo(page)
      const email = freshEmail('newsite')
      const address = await emailLogin(page, email)

      await page.goto(SITE_2)
      await waitForPorthole(page)
      await startEmailConnect(page, email)
      await enterCode(page, await waitForCode(email, 2))
      await expect(modal(page).getByRole('dialog', { name: 'Register this device' })).toBeVisible()
      const approval = await waitForMail(email, /^Approve a new device/)
      for (const part of [SITE_2, 'Chrome', 'Linux', '127.0.0.1'])
        expect(approval.text).toContain(part)
      const link = /(http:\/\/\S+device\/approve\S+)/.exec(approval.text)?.[1] as string
      expect(link).toBeTruthy()

      // A mail scanner's GET approves nothing.
      for (let i = 0; i < 3; i++) expect((await fetch(link)).status).toBe(200)
      const scanner = await context.newPage()
      await scanner.goto(link)
      await expect(scanner.getByText(SITE_2)).toBeVisible()
      await page.waitForTimeout(2500)
      expect((await state(page)).status).not.toBe('connected')
      // The owner's click on Approve (a POST from the page) does.
      await scanner.getByRole('button', { name: 'Approve' }).click()
      await expect(scanner.getByRole('heading', { name: 'Device approved' })).toBeVisible()
      await closePage(scanner)

      const outcome = await connectOutcome(page)
      expect(outcome.error).toBeUndefined()
      expect(outcome.value?.address).toBe(address)
      // Every recovery and every share change is mailed.
      await waitForMail(email, /recovered on a new device/)
      await waitForMail(email, /set up on a new device/)
      // The new site signs with its own device share.
      const signing = providerRequest(page, 'personal_sign', ['0x6f6b', address])
      await walletFrame(page).getByRole('button', { name: 'Approve' }).click()
      expect(await signsFor(address, 'ok', (await signing).value as Hex)).toBe(true)
    } finally {
      await host.close()
    }
  })

  test('automatic, social login: the identity provider’s token, bound to the frame’s key, recovers the wallet on a new site without another step', async ({
    page,
  }) => {
    const host = await startHostPage(SITE_2_PORT, 'porthole-demo', 'site2.localhost')
    const login = `social-${Date.now().toString(36)}@porthole.test`
    const socialConnect = async () => {
      await page.evaluate(`window.__connect = window.porthole.connect().then(
        (value) => ({ value }), (error) => ({ error: { code: error.code, message: error.message } })); undefined`)
      const popupOpened = page.waitForEvent('popup')
      await modal(page).getByRole('button', { name: 'Continue with GitHub' }).click()
      const popup = await popupOpened
      await popup.getByLabel('E-mail').fill(login)
      await popup.getByLabel('Username').fill('octo')
      await popup.getByRole('button', { name: 'Continue' }).click()
      const outcome = await connectOutcome(page)
      expect(outcome.error).toBeUndefined()
      return outcome.value?.address as string
    }
    try {
      await openDemo(page)
      const address = await socialConnect()
      await page.goto(SITE_2)
      await waitForPorthole(page)
      expect(await socialConnect()).toBe(address)
      await waitForMail(login, /set up on a new device/)
    } finally {
      await host.close()
    }
  })

  test('user-held: sign up, set a passkey (PRF), and on a second site recover with code + passkey; nobody else can', async ({
    page,
    context,
  }) => {
    await addPasskeyAuthenticator(context, page)
    const host = await startHostPage(SITE_2_PORT, 'porthole-demo', 'site2.localhost')
    try {
      await openDemo(page)
      const email = freshEmail('passkey')
      const address = await emailLogin(page, email)
      await page.evaluate('window.porthole.open()')
      await modal(page).getByRole('button', { name: 'Protect with a passkey' }).click()
      const card = walletFrame(page).getByRole('dialog', {
        name: 'Protect your wallet with a passkey',
      })
      await card.getByRole('button', { name: 'Create passkey' }).click()
      await expect(modal(page).getByTestId('wallet-protected')).toBeVisible()
      await waitForMail(email, /^The recovery of your Porthole wallet changed/)
      const view = await apiOperatorView(email)
      expect(view.recovery_kind).toBe('passkey')
      // The recovery service cannot open a passkey-sealed share, approved or not.
      const key = await attackerKey()
      const decrypt = await recoveryPost('/v1/recovery/decrypt', {
        ciphertext: view.recovery_ciphertext,
        proof: {
          kind: 'email',
          approvalId: 'x'.repeat(22),
          signature: await sign(key.privateKey, 'x'),
        },
      })
      expect(decrypt.status).toBeGreaterThanOrEqual(400)

      // A second site: a new partition, the same tab (the same authenticator).
      await page.goto(SITE_2)
      await waitForPorthole(page)
      await startEmailConnect(page, email)
      await enterCode(page, await waitForCode(email, 2))
      const unlock = walletFrame(page).getByRole('dialog', { name: 'Unlock your wallet' })
      await unlock.getByRole('button', { name: 'Use passkey' }).click()
      const outcome = await connectOutcome(page)
      expect(outcome.error).toBeUndefined()
      expect(outcome.value?.address).toBe(address)
      // No approval mail was needed, and the user is told of the new device.
      expect((await inbox(email)).some((m) => /^Approve a new device/.test(m.subject))).toBe(false)
      await waitForMail(email, /set up on a new device/)
    } finally {
      await host.close()
    }
  })

  test('a project whose recovery is the user’s asks for the passkey at sign-up', async ({
    page,
    context,
  }) => {
    await addPasskeyAuthenticator(context, page)
    const created = admin('project', 'create', '--origin', 'http://localhost:4017')
    const projectId = created.trimEnd().split('\n').at(-1) as string
    admin('project', 'recovery', projectId, 'user')
    const host = await startHostPage(4017, projectId)
    try {
      await page.goto(host.url)
      await waitForPorthole(page)
      const email = freshEmail('userheld')
      await startEmailConnect(page, email)
      await enterCode(page, await waitForCode(email))
      const card = walletFrame(page).getByRole('dialog', {
        name: 'Protect your wallet with a passkey',
      })
      await card.getByRole('button', { name: 'Create passkey' }).click()
      const outcome = await connectOutcome(page)
      expect(outcome.error).toBeUndefined()
      const db = await openDatabase({ url: apiDataFolder().databaseUrl })
      const [row] = await db.query<{ recovery_kind: string }>(
        'SELECT s.recovery_kind FROM auth_shares s JOIN auth_users u ON u.id = s.user_id WHERE u.email = ?',
        [email],
      )
      await db.close()
      expect(row?.recovery_kind).toBe('passkey')
    } finally {
      await host.close()
    }
  })
})

test('key export: after a fresh sign-in and a confirmation the wallet frame shows the key; the modal never sees it', async ({
  page,
}) => {
  // The exported key is the owner's: the test signs in on the owner account (EOA).
  await openDemo(page, '?accountType=eoa')
  const email = freshEmail('export')
  const address = await emailLogin(page, email)
  await page.evaluate('window.porthole.open()')
  await modal(page).getByRole('button', { name: 'Export private key' }).click()
  const card = walletFrame(page).getByRole('dialog', { name: 'Export your private key' })
  await card.getByRole('button', { name: 'Reveal key' }).click()
  const shown = walletFrame(page).getByLabel('Private key', { exact: true })
  const key = ((await shown.textContent()) ?? '').trim() as Hex
  expect(privateKeyToAddress(key)).toBe(address)
  expect(await modal(page).locator('body').innerText()).not.toContain(key.slice(2, 20))
  await walletFrame(page).getByRole('button', { name: 'Done' }).click()
})
