/**
 * Issue 25, finding 2: Farcaster login phished into the whole wallet. Each test attacks the real
 * services of the running stack (API, recovery service, the local Farcaster relay, the IdRegistry
 * on anvil) from a script with no browser — what an attacker's server does — while the victim uses
 * the wallet in Chromium and answers Farcaster requests with the test client (their Farcaster app).
 */
import { approveChannel } from '@porthole/farcaster'
import { FARCASTER_ID_REGISTRY, parseFarcasterConnectUrl } from '@porthole/shared'
import { createPublicClient, createWalletClient, type Hex, http, parseAbi } from 'viem'
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts'
import {
  admin,
  connectOutcome,
  emailLogin,
  enterCode,
  freshEmail,
  providerRequest,
  signsFor,
  startEmailConnect,
  waitForCode,
  waitForMail,
  walletFrame,
} from '../support/embedded.js'
import {
  apiCall,
  farcasterConnect,
  lower,
  operatorView,
  pollScriptLogin,
  rebuiltAddress,
  recoveryDecrypt,
  type ScriptDevice,
  scriptDevice,
  startScriptLogin,
} from '../support/farcaster.js'
import {
  DEMO_URL,
  DEVNET_RPC,
  expect,
  modal,
  state,
  test,
  waitForPorthole,
} from '../support/fixtures.js'
import { startHostPage } from '../support/hostPage.js'
import { closePage } from '../support/pages.js'

const DEMO = 'porthole-demo'
const DEMO_NAME = 'Porthole demo'
/** A host site of a second project: the demo's port + 21 (4021 on the default stack). */
const SITE_B_PORT = Number(new URL(DEMO_URL).port) + 21
const SITE_B = `http://fcb.localhost:${SITE_B_PORT}`
/** A second site of the demo project (a new storage partition: a new device for the wallet). */
const SITE_2_PORT = Number(new URL(DEMO_URL).port) + 22
const SITE_2 = `http://fcmail.localhost:${SITE_2_PORT}`

/** The victim signs in on the demo with their Farcaster key: the address and fid. */
async function victimWallet(
  page: import('@playwright/test').Page,
  custodyKey: Hex,
  site = DEMO_URL,
  projectId = DEMO,
) {
  await page.goto(site)
  await waitForPorthole(page)
  const { answered, outcome } = await farcasterConnect(page, (url) =>
    approveChannel({ channel: url, privateKey: custodyKey }),
  )
  expect(outcome.error).toBeUndefined()
  return {
    address: outcome.value?.address as string,
    fid: answered.fid,
    /** The wallet key's own address (what a rebuilt key signs as). */
    owner: (await operatorView(projectId, answered.fid)).owner,
  }
}

type Report = {
  start: { status: number; code?: unknown }
  message?: string
  login?: { status: number; code?: unknown }
  shares?: { status: number; code?: unknown; ciphertext?: unknown }
  decrypt?: { status: number; code?: unknown; reason?: unknown }
  rebuilt: string | null
}

/**
 * The relayed login: a script opens a Farcaster login for `projectId` (naming `site`) with its own
 * device key, the victim's Farcaster app answers the link (`approve`), the script polls, takes the
 * session's auth share and recovery ciphertext, asks the recovery service to open the share and
 * rebuilds the key. Every step's answer is reported; `rebuilt` is the address the script got.
 */
async function relayedLogin(
  projectId: string,
  site: string | undefined,
  approve: (url: string) => Promise<{ message: string }>,
  device?: ScriptDevice,
): Promise<Report & { device: ScriptDevice; token?: string }> {
  const attacker = device ?? (await scriptDevice())
  const started = await startScriptLogin(projectId, attacker, site)
  const report: Report & { device: ScriptDevice; token?: string } = {
    device: attacker,
    start: { status: started.status, code: started.body.code },
    rebuilt: null,
  }
  if (started.status !== 200) return report
  const { url, loginId } = started.body as { url: string; loginId: string }
  try {
    report.message = (await approve(url)).message
  } catch (error) {
    report.message = `refused by the victim's app: ${(error as Error).message}`
    return report
  }
  const login = await pollScriptLogin(projectId, attacker, loginId)
  report.login = { status: login.status, code: login.body.code }
  if (login.status !== 200) return report
  const token = login.body.token as string
  report.token = token
  const shares = await apiCall('GET', '/auth/v1/shares', { projectId, token })
  const recovery = shares.body.recovery as { ciphertext?: string | null } | undefined
  report.shares = {
    status: shares.status,
    code: shares.body.code,
    ciphertext: recovery?.ciphertext,
  }
  if (shares.status !== 200 || !recovery?.ciphertext) return report
  const opened = await recoveryDecrypt(
    projectId,
    recovery.ciphertext,
    login.body.farcaster as { message: string; signature: string },
    attacker,
  )
  report.decrypt = { status: opened.status, code: opened.body.code, reason: opened.body.reason }
  if (opened.status === 200)
    report.rebuilt = await rebuiltAddress(
      shares.body.authShare as string,
      opened.body.share as string,
    )
  return report
}

const print = (title: string, report: Report) =>
  console.log(
    `${title}: ${JSON.stringify(
      {
        ...report,
        device: undefined,
        token: undefined,
        message: report.message
          ?.split('\n')
          .slice(0, 1)
          .concat(report.message.split('\n').filter((l) => /^(URI|Request ID):/.test(l))),
      },
      null,
      1,
    )}`,
  )

test('relay phishing: a script cannot start a login for a site the project does not allow; one for an allowed site names that site and the project to the approver', async ({
  page,
}) => {
  const victimKey = generatePrivateKey()
  const victim = await victimWallet(page, victimKey)

  // The attacker's page is https://evil.example: it asks for a login naming its own site.
  const foreign = await relayedLogin(DEMO, 'https://evil.example', (url) =>
    approveChannel({ channel: url, privateKey: victimKey }),
  )
  print(`foreign site (victim ${victim.owner})`, foreign)
  expect
    .soft(lower(foreign.rebuilt), 'the attacker rebuilt the victim’s key')
    .not.toBe(lower(victim.owner))
  expect(foreign.start).toMatchObject({ status: 403, code: 'ORIGIN_NOT_ALLOWED' })
  // Naming no site at all is no way around it.
  const unnamed = await startScriptLogin(DEMO, await scriptDevice())
  expect(unnamed.status).toBe(400)

  // It names the demo's own site instead: the request the victim's Farcaster app shows names that
  // site and the project, so the victim — on evil.example — sees it is not the site they are on.
  const onEvil = await relayedLogin(DEMO, DEMO_URL, (url) =>
    approveChannel({ channel: url, privateKey: victimKey, expectSite: 'https://evil.example' }),
  )
  print('allowed site, victim checks the site they are on', onEvil)
  expect(onEvil.message).toMatch(/^refused by the victim's app: .*localhost/)
  expect(onEvil.rebuilt).toBeNull()

  // What the approver is shown (the message the app signs, and the test client's summary).
  let shown = ''
  const named = await relayedLogin(DEMO, DEMO_URL, async (url) => {
    const request = parseFarcasterConnectUrl(url)
    expect(request).toMatchObject({
      domain: new URL(DEMO_URL).host,
      siweUri: `${DEMO_URL}/`,
      requestId: `porthole:${DEMO}:${encodeURIComponent(DEMO_NAME)}`,
    })
    const sent = await approveChannel({ channel: url, privateKey: victimKey })
    shown = (sent as { shown?: string }).shown ?? ''
    return sent
  })
  print('allowed site, approved anyway (the residual risk)', named)
  expect(named.message).toContain(`${new URL(DEMO_URL).host} wants you to sign in`)
  expect(named.message).toContain(`URI: ${DEMO_URL}/`)
  expect(named.message).toContain(`Request ID: porthole:${DEMO}:`)
  expect(shown).toContain(DEMO_URL)
  expect(shown).toContain(`“${DEMO_NAME}”`)
})

test('cross-project: a login approved for project A does not open project B’s recovery share', async ({
  page,
}) => {
  const created = admin('project', 'create', '--origin', SITE_B, '--name', 'Project B')
  const projectB = created.trimEnd().split('\n').at(-1) as string
  const host = await startHostPage(SITE_B_PORT, projectB, 'fcb.localhost')
  try {
    const victimKey = generatePrivateKey()
    const inB = await victimWallet(page, victimKey, SITE_B, projectB)
    // The API operator's position: project B's auth share and recovery ciphertext.
    const b = await operatorView(projectB, inB.fid)

    // A login the victim approved for the demo (project A), on the demo's own site.
    const attacker = await scriptDevice()
    const started = await startScriptLogin(DEMO, attacker, DEMO_URL)
    expect(started.status).toBe(200)
    const { url, loginId } = started.body as { url: string; loginId: string }
    const sent = await approveChannel({ channel: url, privateKey: victimKey })
    // Polled for project B, the login is unknown there.
    const asB = await apiCall('POST', '/auth/v1/farcaster/status', {
      projectId: projectB,
      body: { loginId, deviceId: attacker.deviceId },
    })
    expect(asB).toMatchObject({ status: 400, body: { code: 'INVALID_RESULT' } })
    // Taken to the recovery service for project B's ciphertext, the message opens nothing.
    const opened = await recoveryDecrypt(projectB, b.ciphertext, sent, attacker)
    const rebuilt =
      opened.status === 200 ? await rebuiltAddress(b.authShare, opened.body.share as string) : null
    console.log(
      `project A's login at project B: ${opened.status} ${JSON.stringify(opened.body.code ?? '')}, rebuilt ${rebuilt} (victim in B ${inB.owner})`,
    )
    expect
      .soft(lower(rebuilt), 'the attacker rebuilt the victim’s key in B')
      .not.toBe(lower(inB.owner))
    expect(opened).toMatchObject({
      status: 401,
      body: { code: 'INVALID_FARCASTER_SIGN_IN', reason: 'project' },
    })
    // The same login still opens project A's share for the device it named (the user approved it).
    await pollScriptLogin(DEMO, attacker, loginId)
  } finally {
    await host.close()
  }
})

const registryAbi = parseAbi(['function transfer(address to)'])

/** Moves the fid of `from` to a new custody key (what a Farcaster recovery or a sale does). */
async function transferFid(from: Hex, to: Hex): Promise<void> {
  const client = createPublicClient({ transport: http(DEVNET_RPC) })
  const wallet = createWalletClient({
    account: privateKeyToAccount(from),
    transport: http(DEVNET_RPC),
  })
  const hash = await wallet.writeContract({
    chain: null,
    address: FARCASTER_ID_REGISTRY,
    abi: registryAbi,
    functionName: 'transfer',
    args: [privateKeyToAddress(to)],
  })
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
}

test('custody change: the fid’s new custody key gets no wallet on a new device, the user is told, and the owner confirms it from a device that holds the wallet', async ({
  page,
  browser,
}) => {
  const oldKey = generatePrivateKey()
  const newKey = generatePrivateKey()
  const victim = await victimWallet(page, oldKey)
  await transferFid(oldKey, newKey)

  // The new custody key signs in on a new device (a script): it gets a session, but no wallet.
  const taken = await relayedLogin(DEMO, DEMO_URL, (url) =>
    approveChannel({ channel: url, privateKey: newKey }),
  )
  print(`new custody on a new device (victim ${victim.owner})`, taken)
  expect
    .soft(lower(taken.rebuilt), 'the new custody key rebuilt the wallet')
    .not.toBe(lower(victim.owner))
  expect(taken.login?.status).toBe(200)
  expect(taken.shares).toMatchObject({ status: 200, ciphertext: null })
  // Even with the ciphertext (the API operator's copy), the recovery service does not open it.
  const view = await operatorView(DEMO, victim.fid)
  const farcaster = await (async () => {
    const attacker = await scriptDevice()
    const started = await startScriptLogin(DEMO, attacker, DEMO_URL)
    const { url, loginId } = started.body as { url: string; loginId: string }
    await approveChannel({ channel: url, privateKey: newKey })
    const login = await pollScriptLogin(DEMO, attacker, loginId)
    return { attacker, message: login.body.farcaster as { message: string; signature: string } }
  })()
  const opened = await recoveryDecrypt(DEMO, view.ciphertext, farcaster.message, farcaster.attacker)
  expect(opened.status).toBeGreaterThanOrEqual(400)
  // In a browser (a new profile: a new device), the new key's sign-in says why.
  const fresh = await browser.newContext()
  try {
    const other = await fresh.newPage()
    await other.goto(DEMO_URL)
    await waitForPorthole(other)
    await other.evaluate('window.porthole.open(); undefined')
    await modal(other).getByRole('button', { name: 'Continue with Farcaster' }).click()
    const qr = modal(other).getByTestId('farcaster-qr')
    await expect(qr).toBeVisible({ timeout: 20_000 })
    await approveChannel({
      channel: (await qr.getAttribute('data-uri')) as string,
      privateKey: newKey,
    })
    await expect(modal(other).getByTestId('farcaster-reason')).toContainText(
      'custody address changed',
    )
    expect((await state(other)).status).not.toBe('connected')
  } finally {
    await fresh.close()
  }

  // The user is told, on their own device, at the next open.
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(async () => (await state(page)).status, { timeout: 20_000 }).toBe('connected')
  await page.evaluate('porthole.open()')
  const notice = modal(page).getByTestId('device-notice')
  await expect(notice).toContainText('another Farcaster custody address')
  await expect(notice).toContainText(privateKeyToAddress(newKey).slice(0, 6))

  // The owner (who moved the fid with a Farcaster recovery) signs in with the new key on this
  // device, which holds the wallet: it confirms the new custody; then a new device recovers.
  await page.evaluate('porthole.disconnect()')
  await expect.poll(async () => (await state(page)).status).toBe('disconnected')
  const again = await farcasterConnect(page, (url) =>
    approveChannel({ channel: url, privateKey: newKey }),
  )
  expect(again.outcome.error).toBeUndefined()
  expect(again.outcome.value?.address).toBe(victim.address)
  const owner = await relayedLogin(DEMO, DEMO_URL, (url) =>
    approveChannel({ channel: url, privateKey: newKey }),
  )
  expect(lower(owner.rebuilt)).toBe(lower(victim.owner))
})

test('a new device that received the recovery share is announced on the user’s other devices and can be removed: its session ends and it gets no auth share', async ({
  page,
}) => {
  const victimKey = generatePrivateKey()
  const victim = await victimWallet(page, victimKey)
  // The residual risk: the victim approves a relayed login for the demo's own site.
  const relayed = await relayedLogin(DEMO, DEMO_URL, (url) =>
    approveChannel({ channel: url, privateKey: victimKey }),
  )
  print('relayed login for an allowed site, approved', relayed)
  expect(lower(relayed.rebuilt)).toBe(lower(victim.owner))

  // The victim's next open: a notice names the new device and its site.
  await page.reload()
  await waitForPorthole(page)
  await expect.poll(async () => (await state(page)).status, { timeout: 20_000 }).toBe('connected')
  await page.evaluate('porthole.open()')
  const notice = modal(page).getByTestId('device-notice')
  await expect(notice).toContainText('Firefox 140 on Windows')
  await expect(notice).toContainText(DEMO_URL)
  await notice.getByRole('button', { name: 'Review devices' }).click()
  const devices = modal(page).getByRole('list', { name: 'Devices' })
  await expect(devices.getByRole('listitem')).toHaveCount(2)
  await expect(devices.getByRole('listitem').filter({ hasText: 'This device' })).toHaveCount(1)
  const stranger = devices.getByRole('listitem').filter({ hasText: 'Firefox 140 on Windows' })
  await stranger.getByRole('button', { name: /^Remove/ }).click()
  await expect(stranger).toHaveCount(0)

  // The removed device's session is over, and signing in again there gets no auth share.
  const after = await apiCall('GET', '/auth/v1/shares', {
    projectId: DEMO,
    token: relayed.token as string,
  })
  expect(after.status).toBe(401)
  const back = await relayedLogin(
    DEMO,
    DEMO_URL,
    (url) => approveChannel({ channel: url, privateKey: victimKey }),
    relayed.device,
  )
  expect(back.shares).toMatchObject({ status: 403, code: 'DEVICE_REVOKED' })

  // This device keeps working.
  const signing = providerRequest(page, 'personal_sign', ['0x6f6b', victim.address])
  await walletFrame(page).getByRole('button', { name: 'Approve' }).click()
  expect(await signsFor(victim.address, 'ok', (await signing).value as Hex)).toBe(true)
})

test('an account with an e-mail is told of a recovery on a new site by mail, and on its first site', async ({
  page,
  context,
}) => {
  admin('project', 'allow', DEMO, SITE_2)
  const host = await startHostPage(SITE_2_PORT, DEMO, 'fcmail.localhost')
  try {
    await page.goto(DEMO_URL)
    await waitForPorthole(page)
    const email = freshEmail('fcmail')
    const address = await emailLogin(page, email)

    await page.goto(SITE_2)
    await waitForPorthole(page)
    await startEmailConnect(page, email)
    await enterCode(page, await waitForCode(email, 2))
    const approval = await waitForMail(email, /^Approve a new device/)
    const link = /(http:\/\/\S+device\/approve\S+)/.exec(approval.text)?.[1] as string
    const owner = await context.newPage()
    await owner.goto(link)
    await owner.getByRole('button', { name: 'Approve' }).click()
    await expect(owner.getByRole('heading', { name: 'Device approved' })).toBeVisible()
    // Not owner.close(): Chromium can drop a close that meets the POST's navigation commit.
    await closePage(owner)
    expect((await connectOutcome(page)).value?.address).toBe(address)
    // Mailed: the recovery service's notice names the new site.
    const mail = await waitForMail(email, /recovered on a new device/)
    expect(mail.text).toContain(SITE_2)

    // And shown on the first site at its next open.
    await page.goto(DEMO_URL)
    await waitForPorthole(page)
    await expect.poll(async () => (await state(page)).status, { timeout: 20_000 }).toBe('connected')
    await page.evaluate('porthole.open()')
    const notice = modal(page).getByTestId('device-notice')
    await expect(notice).toContainText('set up on a new device')
    await expect(notice).toContainText(SITE_2)
    await notice.getByRole('button', { name: 'Review devices' }).click()
    await expect(
      modal(page).getByRole('list', { name: 'Devices' }).getByRole('listitem'),
    ).toHaveCount(2)
    // Shown once: the next open has no notice.
    await page.reload()
    await waitForPorthole(page)
    await expect.poll(async () => (await state(page)).status, { timeout: 20_000 }).toBe('connected')
    await page.evaluate('porthole.open()')
    await expect(modal(page).getByRole('button', { name: 'Devices' })).toBeVisible()
    await expect(modal(page).getByTestId('device-notice')).toHaveCount(0)
  } finally {
    await host.close()
    admin('project', 'deny', DEMO, SITE_2)
  }
})
